import {
  type Address,
  createPublicClient,
  getAddress,
  type Hex,
  http,
  isAddress,
  isAddressEqual,
  type PublicClient,
  zeroAddress,
} from 'viem'
import { parseSiweMessage } from 'viem/siwe'

/*
 * Sign In With Farcaster (FIP-11): an EIP-4361 message with chain id 10 and a
 * `farcaster://fid/<fid>` resource, signed (ERC-191, or ERC-1271 for a
 * contract) by the fid's custody address as the IdRegistry on Optimism
 * records it. Security bar 21: domain and nonce match; the signer is the
 * fid's custody address.
 */

/** SIWF messages name Optimism (auth-client messages/constants.ts). */
export const SIWF_CHAIN_ID = 10

/** RPC calls to the registry give up after this long. */
export const REGISTRY_TIMEOUT_MS = 10_000

/** The one IdRegistry function sign-in needs. */
export const idRegistryAbi = [
  {
    type: 'function',
    name: 'custodyOf',
    stateMutability: 'view',
    inputs: [{ name: 'fid', type: 'uint256' }],
    outputs: [{ name: 'custody', type: 'address' }],
  },
] as const

const FID_RESOURCE = /^farcaster:\/\/fid\/([1-9]\d*)\/?$/
const SIGNER_TYPE_RESOURCE = /^farcaster:\/\/signer\/type\/(.+?)\/?$/

/** Why a Sign In With Farcaster proof was refused (the `reason` of AUTHENTICATION_FAILED). */
export type FarcasterVerificationReason =
  | 'invalid_message'
  | 'domain_mismatch'
  | 'uri_mismatch'
  | 'nonce_mismatch'
  | 'chain_mismatch'
  | 'fid_mismatch'
  | 'auth_address_not_accepted'
  | 'message_expired'
  | 'message_not_yet_valid'
  | 'unknown_fid'
  | 'signer_not_custody'
  | 'invalid_signature'

export class FarcasterVerificationError extends Error {
  override readonly name = 'FarcasterVerificationError'
  constructor(readonly reason: FarcasterVerificationReason) {
    super(`Sign In With Farcaster refused: ${reason}`)
  }
}

/** The ID registry could not be read (RPC down or refusing). */
export class FarcasterRegistryError extends Error {
  override readonly name = 'FarcasterRegistryError'
}

/** What the channel this server opened expects of the message. */
export interface ExpectedSignIn {
  domain: string
  /** The SIWE URI (our app's origin). */
  uri: string
  nonce: string
}

export interface FarcasterRegistry {
  rpcUrl: string
  idRegistryAddress: Address
}

export interface VerifySignInWithFarcasterParameters {
  message: string
  signature: Hex
  /** The fid the caller claims; the message's fid resource must name it. */
  fid: number
  expected: ExpectedSignIn
  registry: FarcasterRegistry
  /** Epoch ms (services.now()). */
  now: number
  /** Injected for tests; default a public client on `registry.rpcUrl`. */
  client?: PublicClient
}

export interface VerifiedSignIn {
  fid: number
  /** The custody address that signed (checksummed). */
  custody: Address
}

function fail(reason: FarcasterVerificationReason): never {
  throw new FarcasterVerificationError(reason)
}

/**
 * Checks the message against the channel (domain, URI, nonce, chain, fid
 * resource, time window) without touching the chain. Returns the signer the
 * message names.
 */
export function checkSignInMessage(
  message: string,
  fid: number,
  expected: ExpectedSignIn,
  now: number,
): Address {
  const parsed = parseSiweMessage(message)
  if (
    !parsed.address ||
    !isAddress(parsed.address, { strict: false }) ||
    parsed.version !== '1' ||
    !parsed.domain ||
    !parsed.uri ||
    !parsed.nonce
  )
    fail('invalid_message')
  // EIP-4361 §5.2: the domain, URI and nonce are the relying party's, not the signer's.
  if (parsed.domain !== expected.domain) fail('domain_mismatch')
  if (parsed.scheme !== undefined && `${parsed.scheme}:` !== new URL(expected.uri).protocol)
    fail('domain_mismatch')
  if (parsed.uri !== expected.uri) fail('uri_mismatch')
  if (parsed.nonce !== expected.nonce) fail('nonce_mismatch')
  if (parsed.chainId !== SIWF_CHAIN_ID) fail('chain_mismatch')
  // FIP-11: exactly one fid resource, and it names the account logging in.
  const resources = parsed.resources ?? []
  const fids = resources.flatMap((r) => r.match(FID_RESOURCE)?.[1] ?? [])
  if (fids.length !== 1 || fids[0] !== String(fid)) fail('fid_mismatch')
  // An auth-address signature is a delegated key, not the custody address (security bar 21).
  for (const r of resources) {
    const type = r.match(SIGNER_TYPE_RESOURCE)?.[1]
    if (type !== undefined && type !== 'custody') fail('auth_address_not_accepted')
  }
  for (const date of [parsed.issuedAt, parsed.expirationTime, parsed.notBefore])
    if (date !== undefined && Number.isNaN(date.getTime())) fail('invalid_message')
  if (parsed.expirationTime && parsed.expirationTime.getTime() <= now) fail('message_expired')
  if (parsed.notBefore && parsed.notBefore.getTime() > now) fail('message_not_yet_valid')
  return getAddress(parsed.address)
}

/** A public client on the registry's chain (no chain object: signature checks run deployless). */
export function registryClient(registry: FarcasterRegistry): PublicClient {
  return createPublicClient({
    transport: http(registry.rpcUrl, { timeout: REGISTRY_TIMEOUT_MS, retryCount: 1 }),
  })
}

/** `custodyOf(fid)` from the IdRegistry; the zero address for an unregistered fid. */
export async function readCustodyAddress(
  client: PublicClient,
  registry: FarcasterRegistry,
  fid: number,
): Promise<Address> {
  try {
    return await client.readContract({
      address: registry.idRegistryAddress,
      abi: idRegistryAbi,
      functionName: 'custodyOf',
      args: [BigInt(fid)],
    })
  } catch (cause) {
    throw new FarcasterRegistryError('Could not read the Farcaster ID registry', { cause })
  }
}

/**
 * Verifies a Sign In With Farcaster proof end to end: the message against
 * the channel, the fid's custody address from the IdRegistry, that the
 * message's signer is that address, and the signature (EOA, or ERC-1271 /
 * ERC-6492 through the RPC). Throws FarcasterVerificationError with a reason,
 * or FarcasterRegistryError when the chain cannot be read.
 *
 * @example
 * const { custody } = await verifySignInWithFarcaster({
 *   message, signature, fid, now: services.now(),
 *   expected: { domain: 'app.example', uri: 'https://app.example', nonce },
 *   registry: { rpcUrl, idRegistryAddress },
 * })
 */
export async function verifySignInWithFarcaster(
  parameters: VerifySignInWithFarcasterParameters,
): Promise<VerifiedSignIn> {
  const { message, signature, fid, expected, registry, now } = parameters
  const signer = checkSignInMessage(message, fid, expected, now)
  const client = parameters.client ?? registryClient(registry)
  const custody = await readCustodyAddress(client, registry, fid)
  if (isAddressEqual(custody, zeroAddress)) fail('unknown_fid')
  if (!isAddressEqual(signer, custody)) fail('signer_not_custody')
  let valid: boolean
  try {
    valid = await client.verifyMessage({ address: custody, message, signature })
  } catch (cause) {
    throw new FarcasterRegistryError('Could not verify the signature on chain', { cause })
  }
  if (!valid) fail('invalid_signature')
  return { fid, custody: getAddress(custody) }
}
