import { createHash } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'

/** SPL Token account layouts (mint: 82 bytes, token account: 165), read and written by hand. */
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'
export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'
export const MINT_SIZE = 82
export const TOKEN_ACCOUNT_SIZE = 165

export const isTokenProgram = (owner: string) =>
  owner === TOKEN_PROGRAM || owner === TOKEN_2022_PROGRAM

function isOnCurve(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes)
    return true
  } catch {
    return false
  }
}

/** `findProgramAddress`: the first off-curve hash from bump 255 down. */
export function findProgramAddress(seeds: Uint8Array[], programId: string): string {
  for (let bump = 255; bump >= 0; bump--) {
    const hash = createHash('sha256')
    for (const seed of seeds) hash.update(seed)
    hash
      .update(Uint8Array.of(bump))
      .update(base58.decode(programId))
      .update('ProgramDerivedAddress')
    const digest = new Uint8Array(hash.digest())
    if (!isOnCurve(digest)) return base58.encode(digest)
  }
  throw new Error('no viable bump seed')
}

/** The associated token account of `owner` for `mint`. */
export function associatedTokenAddress(
  owner: string,
  mint: string,
  tokenProgram = TOKEN_PROGRAM,
): string {
  return findProgramAddress(
    [base58.decode(owner), base58.decode(tokenProgram), base58.decode(mint)],
    ASSOCIATED_TOKEN_PROGRAM,
  )
}

export interface MintState {
  mintAuthority: string | null
  supply: bigint
  decimals: number
  isInitialized: boolean
  freezeAuthority: string | null
}

export interface TokenAccountState {
  mint: string
  owner: string
  amount: bigint
  delegate: string | null
  state: 'uninitialized' | 'initialized' | 'frozen'
  isNative: bigint | null
  delegatedAmount: bigint
  closeAuthority: string | null
}

const view = (data: Uint8Array) => new DataView(data.buffer, data.byteOffset, data.byteLength)

function readOptionKey(data: Uint8Array, at: number): string | null {
  return view(data).getUint32(at, true) ? base58.encode(data.subarray(at + 4, at + 36)) : null
}
function writeOptionKey(data: Uint8Array, at: number, key: string | null) {
  if (!key) return
  view(data).setUint32(at, 1, true)
  data.set(base58.decode(key), at + 4)
}

/** Mint or token account, by size (Token-2022 extensions: the type byte after 165 bytes). */
export function tokenDataKind(data: Uint8Array): 'mint' | 'account' | null {
  if (data.length === MINT_SIZE) return 'mint'
  if (data.length === TOKEN_ACCOUNT_SIZE) return 'account'
  if (data.length > TOKEN_ACCOUNT_SIZE) return data[165] === 1 ? 'mint' : 'account'
  return null
}

export function readMint(data: Uint8Array): MintState | null {
  if (tokenDataKind(data) !== 'mint' || data[45] !== 1) return null
  return {
    mintAuthority: readOptionKey(data, 0),
    supply: view(data).getBigUint64(36, true),
    decimals: data[44] ?? 0,
    isInitialized: true,
    freezeAuthority: readOptionKey(data, 46),
  }
}

export function writeMint(state: Omit<MintState, 'isInitialized'>): Uint8Array {
  const data = new Uint8Array(MINT_SIZE)
  writeOptionKey(data, 0, state.mintAuthority)
  view(data).setBigUint64(36, state.supply, true)
  data[44] = state.decimals
  data[45] = 1
  writeOptionKey(data, 46, state.freezeAuthority)
  return data
}

const STATES = ['uninitialized', 'initialized', 'frozen'] as const

export function readTokenAccount(data: Uint8Array): TokenAccountState | null {
  if (tokenDataKind(data) !== 'account' || !data[108]) return null
  const v = view(data)
  return {
    mint: base58.encode(data.subarray(0, 32)),
    owner: base58.encode(data.subarray(32, 64)),
    amount: v.getBigUint64(64, true),
    delegate: readOptionKey(data, 72),
    state: STATES[data[108] ?? 0] ?? 'initialized',
    isNative: v.getUint32(109, true) ? v.getBigUint64(113, true) : null,
    delegatedAmount: v.getBigUint64(121, true),
    closeAuthority: readOptionKey(data, 129),
  }
}

export function writeTokenAccount(mint: string, owner: string, amount: bigint): Uint8Array {
  const data = new Uint8Array(TOKEN_ACCOUNT_SIZE)
  data.set(base58.decode(mint), 0)
  data.set(base58.decode(owner), 32)
  view(data).setBigUint64(64, amount, true)
  data[108] = 1
  return data
}

/** `{ amount, decimals, uiAmount, uiAmountString }` as the RPC's token amounts read. */
export function uiTokenAmount(amount: bigint, decimals: number) {
  const scale = 10n ** BigInt(decimals)
  const fraction = (amount % scale).toString().padStart(decimals, '0').replace(/0+$/, '')
  const uiAmountString = `${amount / scale}${fraction ? `.${fraction}` : ''}`
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString }
}

/** The `jsonParsed` form of a mint or token account, or null for other data. */
export function parsedTokenData(
  owner: string,
  data: Uint8Array,
  decimalsOf: (mint: string) => number,
): { program: string; parsed: unknown; space: number } | null {
  if (!isTokenProgram(owner)) return null
  const program = owner === TOKEN_PROGRAM ? 'spl-token' : 'spl-token-2022'
  const space = data.length
  const mint = readMint(data)
  if (mint) {
    const info = { ...mint, supply: mint.supply.toString() }
    return { program, parsed: { info, type: 'mint' }, space }
  }
  const account = readTokenAccount(data)
  if (!account) return null
  const decimals = decimalsOf(account.mint)
  const info: Record<string, unknown> = {
    isNative: account.isNative !== null,
    mint: account.mint,
    owner: account.owner,
    state: account.state,
    tokenAmount: uiTokenAmount(account.amount, decimals),
  }
  if (account.delegate) {
    info.delegate = account.delegate
    info.delegatedAmount = uiTokenAmount(account.delegatedAmount, decimals)
  }
  if (account.closeAuthority) info.closeAuthority = account.closeAuthority
  return { program, parsed: { info, type: 'account' }, space }
}

export const ADDRESS_LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111'
const LOOKUP_TABLE_META_SIZE = 56

/** An active lookup table (no authority, never deactivated) holding `addresses`. */
export function writeLookupTable(addresses: string[]): Uint8Array {
  const data = new Uint8Array(LOOKUP_TABLE_META_SIZE + 32 * addresses.length)
  view(data).setUint32(0, 1, true)
  view(data).setBigUint64(4, 0xffff_ffff_ffff_ffffn, true)
  addresses.forEach((key, i) => {
    data.set(base58.decode(key), LOOKUP_TABLE_META_SIZE + 32 * i)
  })
  return data
}

/** The addresses a lookup table holds. */
export function readLookupTable(data: Uint8Array): string[] {
  const addresses: string[] = []
  for (let at = LOOKUP_TABLE_META_SIZE; at + 32 <= data.length; at += 32) {
    addresses.push(base58.encode(data.subarray(at, at + 32)))
  }
  return addresses
}

/** The `jsonParsed` form of a lookup table account. */
export function parsedLookupTable(data: Uint8Array) {
  const v = view(data)
  const authority = data[21] ? base58.encode(data.subarray(22, 54)) : undefined
  const info = {
    addresses: readLookupTable(data),
    ...(authority ? { authority } : {}),
    deactivationSlot: v.getBigUint64(4, true).toString(),
    lastExtendedSlot: v.getBigUint64(12, true).toString(),
    lastExtendedSlotStartIndex: data[20] ?? 0,
  }
  return {
    program: 'address-lookup-table',
    parsed: { info, type: 'lookupTable' },
    space: data.length,
  }
}
