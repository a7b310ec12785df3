/**
 * A Wallet Standard wallet for Chromium tests, backed by a real Ed25519 key
 * that never enters the page. The page script registers the wallet with the
 * Wallet Standard protocol (the `wallet-standard:register-wallet` /
 * `wallet-standard:app-ready` handshake, so it is found whether it loads
 * before or after the app) and forwards connect and signing calls through a
 * Playwright binding to a handler here, in Node, which owns the key. Sign-In
 * With Solana messages are built by `@solana/wallet-standard-util`'s
 * `createSignInMessageText`, the text `verifySignIn` expects. Whether the page
 * is authorized survives navigations, like a real extension's.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import type { SolanaSignInInput } from '@solana/wallet-standard-features'
import { createSignInMessageText } from '@solana/wallet-standard-util'
import type { IdentifierString } from '@wallet-standard/base'
import type { Page } from 'playwright-core'
import { consume, pageScriptSource, randomSuffix, runInCurrentDocuments, sleep } from './shared.ts'

export interface TestSolanaWalletBehaviour {
  /**
   * Reject `standard:connect` (and `solana:signIn` while not connected) with
   * 4001: always (`true`) or the next N times (a number).
   */
  rejectConnect?: boolean | number
  /** Reject `solana:signMessage` / `solana:signIn` / `solana:signTransaction` with 4001: always or the next N times. */
  rejectSign?: boolean | number
  /** How long the "user" takes to answer a signature request. */
  signDelayMs?: number
}

export interface TestSolanaWalletOptions {
  /** The 32-byte Ed25519 seed. Default: random. */
  secretKey?: Uint8Array
  /** Default 'Test Solana Wallet'. */
  name?: string
  /** A data URI. Default: a small SVG. */
  icon?: string
  /** Default ['solana:mainnet', 'solana:devnet']. */
  chains?: IdentifierString[]
  features?: TestSolanaWalletFeatures
  /** Inject into iframes too, not only the top-level document. Default false. */
  allFrames?: boolean
  behaviour?: TestSolanaWalletBehaviour
}

export type SolanaWalletMethod =
  | 'standard:connect'
  | 'standard:disconnect'
  | 'solana:signIn'
  | 'solana:signMessage'
  | 'solana:signTransaction'

export interface SolanaWalletRequest {
  method: SolanaWalletMethod
  /**
   * connect: `{ silent }`; signIn: the inputs as the page passed them (plus
   * `host`, the page's `location.host`); signMessage / signTransaction: the
   * inputs' messages / transactions as Uint8Arrays.
   */
  params?: unknown
}

export interface TestSolanaWallet {
  /** Base58 public key. */
  address: string
  publicKey: Uint8Array
  secretKey: Uint8Array
  name: string
  /** Every call the page made, in order (including rejected ones). */
  requests: SolanaWalletRequest[]
  /** Whether the page is authorized (connected or signed in, and not disconnected since). */
  readonly connected: boolean
  readonly behaviour: Readonly<TestSolanaWalletBehaviour>
  /** Merges into the current behaviour. */
  setBehaviour(partial: Partial<TestSolanaWalletBehaviour>): void
}

const DEFAULT_ICON = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#0f766e"/><path d="M9 10h14l-3 3H6zM9 19h14l-3 3H6zM6 14.5h14l3 3H9z" fill="#fff"/></svg>',
).toString('base64')}`

import { type PageArg, solanaPageScript, type TestSolanaWalletFeatures } from './solana-page.ts'

export type { TestSolanaWalletFeatures } from './solana-page.ts'

interface Envelope {
  result?: unknown
  error?: { code: number; message: string }
}

const userRejected = (): Envelope => ({
  error: { code: 4001, message: 'User rejected the request.' },
})
const unauthorized = (): Envelope => ({
  error: { code: 4100, message: 'The requested account has not been authorized by the user.' },
})
const invalidParams = (message: string): Envelope => ({ error: { code: -32602, message } })

/** Solana's compact-u16 (shortvec): its value and its length in bytes. */
function readCompactU16(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0
  for (let i = 0; i < 3; i++) {
    const byte = bytes[offset + i]
    if (byte === undefined) throw new Error('truncated compact-u16')
    value |= (byte & 0x7f) << (7 * i)
    if ((byte & 0x80) === 0) return [value, i + 1]
  }
  throw new Error('compact-u16 too long')
}

/**
 * Signs a wire transaction (legacy or v0): finds the key among the message's
 * signers and puts its signature in that slot.
 */
export function signWireTransaction(
  transaction: Uint8Array,
  secretKey: Uint8Array,
  publicKey = ed25519.getPublicKey(secretKey),
): Uint8Array {
  const [count, countLength] = readCompactU16(transaction, 0)
  const messageStart = countLength + 64 * count
  const message = transaction.subarray(messageStart)
  let offset = (message[0] ?? 0) & 0x80 ? 1 : 0 // versioned messages start with 0x80 | version
  const requiredSignatures = message[offset]
  if (requiredSignatures === undefined) throw new Error('truncated transaction message')
  offset += 3 // header: required signatures, read-only signed, read-only unsigned
  const [keyCount, keyCountLength] = readCompactU16(message, offset)
  offset += keyCountLength
  const signers = Math.min(requiredSignatures, keyCount, count)
  for (let i = 0; i < signers; i++) {
    const key = message.subarray(offset + 32 * i, offset + 32 * (i + 1))
    if (key.length === 32 && key.every((b, j) => b === publicKey[j])) {
      const signed = transaction.slice()
      signed.set(ed25519.sign(message, secretKey), countLength + 64 * i)
      return signed
    }
  }
  throw new Error('the wallet is not a signer of this transaction')
}

/**
 * Installs the wallet in `page`: in every document it loads from now on
 * (init script), and in the document it shows now. Call before `page.goto`
 * for a wallet that is there when the app starts, or after it to register
 * the wallet with an app that is already listening.
 */
export async function installTestSolanaWallet(
  page: Page,
  options: TestSolanaWalletOptions = {},
): Promise<TestSolanaWallet> {
  const secretKey = options.secretKey ?? ed25519.utils.randomSecretKey()
  if (secretKey.length !== 32) throw new Error('secretKey must be a 32-byte Ed25519 seed')
  const publicKey = ed25519.getPublicKey(secretKey)
  const address = base58.encode(publicKey)
  const name = options.name ?? 'Test Solana Wallet'
  const features: Required<TestSolanaWalletFeatures> = {
    signIn: options.features?.signIn ?? true,
    signMessage: options.features?.signMessage ?? true,
    signTransaction: options.features?.signTransaction ?? false,
  }
  const behaviour: TestSolanaWalletBehaviour = { ...options.behaviour }
  const requests: SolanaWalletRequest[] = []
  let connected = false

  /** A signature request as the user answers it: a pause, maybe a rejection. */
  async function approveSignature(): Promise<Envelope | undefined> {
    if (behaviour.signDelayMs) await sleep(behaviour.signDelayMs)
    return consume(behaviour, 'rejectSign') ? userRejected() : undefined
  }

  async function handle(method: SolanaWalletMethod, params: unknown): Promise<Envelope> {
    switch (method) {
      case 'standard:connect': {
        const { silent } = params as { silent: boolean }
        requests.push({ method, params: { silent } })
        if (silent || connected) return { result: connected }
        if (consume(behaviour, 'rejectConnect')) return userRejected()
        connected = true
        return { result: true }
      }
      case 'standard:disconnect': {
        requests.push({ method })
        connected = false
        return { result: null }
      }
      case 'solana:signMessage': {
        const messages = (params as number[][]).map((m) => Uint8Array.from(m))
        requests.push({ method, params: messages })
        if (!connected) return unauthorized()
        const rejected = await approveSignature()
        if (rejected) return rejected
        return {
          result: messages.map((message) => ({
            signedMessage: [...message],
            signature: [...ed25519.sign(message, secretKey)],
          })),
        }
      }
      case 'solana:signTransaction': {
        const transactions = (params as number[][]).map((t) => Uint8Array.from(t))
        requests.push({ method, params: transactions })
        if (!connected) return unauthorized()
        const rejected = await approveSignature()
        if (rejected) return rejected
        try {
          return {
            result: transactions.map((t) => [...signWireTransaction(t, secretKey, publicKey)]),
          }
        } catch (error) {
          return invalidParams(String(error instanceof Error ? error.message : error))
        }
      }
      case 'solana:signIn': {
        const { inputs, host } = params as { inputs: SolanaSignInInput[]; host: string }
        requests.push({ method, params: { inputs, host } })
        if (inputs.some((input) => input.address !== undefined && input.address !== address))
          return invalidParams('solana:signIn: the address is not this wallet’s account')
        if (!connected && consume(behaviour, 'rejectConnect')) return userRejected()
        const rejected = await approveSignature()
        if (rejected) return rejected
        connected = true
        return {
          result: inputs.map((input) => {
            // The wallet fills in domain and address when the app leaves them out (SIWS).
            const text = createSignInMessageText({
              ...input,
              domain: input.domain ?? host,
              address: input.address ?? address,
            })
            const signedMessage = new TextEncoder().encode(text)
            return {
              signedMessage: [...signedMessage],
              signature: [...ed25519.sign(signedMessage, secretKey)],
            }
          }),
        }
      }
      default:
        return { error: { code: 4200, message: `Unsupported method: ${String(method)}` } }
    }
  }

  const suffix = randomSuffix()
  const arg: PageArg = {
    binding: `__latchkeyTestSolanaWallet_${suffix}`,
    hook: `__latchkeyTestSolanaWalletHook_${suffix}`,
    name,
    icon: options.icon ?? DEFAULT_ICON,
    chains: options.chains ?? ['solana:mainnet', 'solana:devnet'],
    address,
    publicKey: [...publicKey],
    features,
    allFrames: options.allFrames ?? false,
  }
  await page.exposeBinding(
    arg.binding,
    async (_source, method: SolanaWalletMethod, params: unknown) => {
      try {
        return await handle(method, params)
      } catch (error) {
        return { error: { code: -32603, message: `Internal error: ${String(error)}` } }
      }
    },
  )
  const source = pageScriptSource(solanaPageScript, arg)
  await page.addInitScript({ content: source })
  // The document shown now (the init script only runs for documents to come).
  await runInCurrentDocuments(page.frames(), source)

  return {
    address,
    publicKey,
    secretKey,
    name,
    requests,
    get connected() {
      return connected
    },
    get behaviour() {
      return behaviour
    },
    setBehaviour(partial) {
      Object.assign(behaviour, partial)
    },
  }
}
