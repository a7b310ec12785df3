import { randomBytes, randomUUID } from 'node:crypto'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  type LocalAccount,
  parseEventLogs,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { type CreateSiweMessageParameters, createSiweMessage } from 'viem/siwe'
import { type AnvilNode, startAnvil } from '../../test/anvil.ts'
import { handleCors, listen, sendJson } from '../../test/fakes/http.ts'
import { compileSolidity } from '../../test/solidity.ts'

/*
 * Test peers of Sign In With Farcaster, usable by server and browser tests:
 *
 * - startFakeFarcasterRelay(): a local relay speaking the Farcaster Connect
 *   relay API over HTTP (farcasterxyz/auth-monorepo relay-core app.ts:
 *   POST /v1/channel, GET /v1/channel/status, POST /v1/channel/authenticate),
 *   including its quirk of deleting a channel once it reported it completed.
 * - startFarcasterChain(): Anvil with chain id 10 and an IdRegistry-shaped
 *   contract (custodyOf(uint256), register(address)) deployed on it.
 * - signInWithFarcasterApp(): plays the Farcaster app (Warpcast): reads the
 *   channel's parameters, signs the SIWF message with the custody key and
 *   posts it to the relay.
 */

// ---------------------------------------------------------------------------
// The relay

/** A channel as the relay holds it (relay-core RelaySession). */
export interface FakeRelayChannel {
  state: 'pending' | 'completed'
  nonce: string
  url: string
  connectUri: string
  acceptAuthAddress: boolean
  signatureParams: {
    siweUri: string
    domain: string
    nonce: string
    notBefore?: string
    expirationTime?: string
    requestId?: string
    redirectUrl?: string
  }
  metadata: { userAgent: string; ip: string }
  message?: string
  signature?: string
  authMethod?: 'custody' | 'authAddress'
  fid?: number
  username?: string
  displayName?: string
  bio?: string
  pfpUrl?: string
  custody?: Address
  verifications?: string[]
}

export interface FakeFarcasterRelay {
  /** Base URL, e.g. http://127.0.0.1:PORT (what LATCHKEY_FARCASTER_RELAY_URL would be). */
  url: string
  /** The channel for `channelToken`; undefined when unknown or already read completed. */
  channel(channelToken: string): FakeRelayChannel | undefined
  /** When false, every relay call answers 503 (the relay is down). */
  setAvailable(available: boolean): void
  /** Bodies of POST /v1/channel the relay received, in order. */
  createdChannels: FakeRelayChannel['signatureParams'][]
  close(): Promise<void>
}

export interface FakeFarcasterRelayOptions {
  /** Base of the connect URI the QR code shows (default the Farcaster app's SIWF page). */
  connectUriBase?: string
  /** When set, /v1/channel/authenticate requires it in x-farcaster-auth-relay-key, as the real relay does. */
  authKey?: string
  /** Custody address the relay reports for a fid (the real one asks a hub); optional. */
  custodyOf?: (fid: number) => Address | undefined
}

const DOMAIN_PATTERN = /^[a-zA-Z0-9.-]+(:[0-9]+)?$/

function bearer(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header
  return value?.split(' ')[1] || undefined
}

function jsonBody(body: Buffer): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

const optionalString = (value: unknown) => value === undefined || typeof value === 'string'

/**
 * Starts a Farcaster Connect relay look-alike on a free port of 127.0.0.1.
 *
 * @example
 * const relay = await startFakeFarcasterRelay()
 * afterAll(() => relay.close())
 * const t = await getTestInstance({ farcaster: { relayUrl: relay.url, … } })
 */
export async function startFakeFarcasterRelay(
  options: FakeFarcasterRelayOptions = {},
): Promise<FakeFarcasterRelay> {
  const connectUriBase = options.connectUriBase ?? 'https://farcaster.xyz/~/siwf'
  const channels = new Map<string, FakeRelayChannel>()
  const createdChannels: FakeRelayChannel['signatureParams'][] = []
  let available = true

  const listening = await listen(async (req, res) => {
    if (handleCors(req, res, '*', 'authorization, content-type, x-farcaster-auth-relay-key')) return
    if (!available) return sendJson(res, 503, { error: 'Service Unavailable' })
    const path = req.url.pathname

    if (req.method === 'POST' && path === '/v1/channel') {
      const body = jsonBody(req.body)
      if (
        !body ||
        typeof body.siweUri !== 'string' ||
        !URL.canParse(body.siweUri) ||
        typeof body.domain !== 'string' ||
        !DOMAIN_PATTERN.test(body.domain) ||
        !optionalString(body.nonce) ||
        !optionalString(body.notBefore) ||
        !optionalString(body.expirationTime) ||
        (body.acceptAuthAddress !== undefined && typeof body.acceptAuthAddress !== 'boolean')
      )
        return sendJson(res, 400, { error: 'Validation error' })
      const channelToken = randomUUID()
      const nonce = (body.nonce as string | undefined) ?? randomBytes(8).toString('hex')
      const url = `${connectUriBase}?${new URLSearchParams({ channelToken })}`
      const signatureParams = {
        ...(body as unknown as FakeRelayChannel['signatureParams']),
        nonce,
      }
      createdChannels.push(signatureParams)
      channels.set(channelToken, {
        state: 'pending',
        nonce,
        url,
        connectUri: url,
        acceptAuthAddress: (body.acceptAuthAddress as boolean | undefined) ?? true,
        signatureParams,
        metadata: { userAgent: String(req.headers['user-agent'] ?? 'Unknown'), ip: '127.0.0.1' },
      })
      return sendJson(res, 201, { channelToken, url, connectUri: url, nonce })
    }

    const channelToken = bearer(req.headers.authorization)
    if (path === '/v1/channel/status' && req.method === 'GET') {
      const channel = channelToken ? channels.get(channelToken) : undefined
      if (!channelToken || !channel) return sendJson(res, 401, { error: 'Unauthorized' })
      const { url: _url, connectUri: _connectUri, ...rest } = channel
      if (channel.state === 'completed') {
        // relay-core closes a channel once it reported it completed.
        channels.delete(channelToken)
        return sendJson(res, 200, rest)
      }
      return sendJson(res, 202, rest)
    }

    if (path === '/v1/channel/authenticate' && req.method === 'POST') {
      if (!channelToken) return sendJson(res, 401, { error: 'Unauthorized' })
      const key = req.headers['x-farcaster-auth-relay-key']
      if (options.authKey !== undefined && key !== options.authKey)
        return sendJson(res, 401, { error: 'Unauthorized' })
      const body = jsonBody(req.body)
      if (
        !body ||
        typeof body.message !== 'string' ||
        typeof body.signature !== 'string' ||
        typeof body.fid !== 'number' ||
        !Number.isInteger(body.fid)
      )
        return sendJson(res, 400, { error: 'Validation error' })
      const channel = channels.get(channelToken)
      if (!channel) return sendJson(res, 401, { error: 'Unauthorized' })
      const custody = options.custodyOf?.(body.fid)
      const updated: FakeRelayChannel = {
        ...channel,
        state: 'completed',
        message: body.message,
        signature: body.signature,
        authMethod: body.authMethod === 'authAddress' ? 'authAddress' : 'custody',
        fid: body.fid,
        ...(typeof body.username === 'string' ? { username: body.username } : {}),
        ...(typeof body.displayName === 'string' ? { displayName: body.displayName } : {}),
        ...(typeof body.bio === 'string' ? { bio: body.bio } : {}),
        ...(typeof body.pfpUrl === 'string' ? { pfpUrl: body.pfpUrl } : {}),
        ...(custody ? { custody } : {}),
        verifications: [],
      }
      channels.set(channelToken, updated)
      return sendJson(res, 201, updated)
    }

    sendJson(res, 404, { error: 'Not Found' })
  })

  return {
    url: listening.url,
    channel: (channelToken) => channels.get(channelToken),
    setAvailable(value) {
      available = value
    },
    createdChannels,
    close: () => listening.close(),
  }
}

// ---------------------------------------------------------------------------
// The chain: Anvil as Optimism (chain id 10) with an IdRegistry

/** The IdRegistry's shape (custodyOf as the real one's public getter) and an ERC-1271 wallet. */
export const FARCASTER_CONTRACTS_SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The part of Farcaster's IdRegistry sign-in reads: fid => custody address.
contract IdRegistry {
    uint256 public idCounter;
    mapping(uint256 => address) public custodyOf;
    mapping(address => uint256) public idOf;

    event Register(address indexed to, uint256 indexed id);

    function register(address custody) external returns (uint256 fid) {
        require(custody != address(0) && idOf[custody] == 0, "Has Id");
        fid = ++idCounter;
        custodyOf[fid] = custody;
        idOf[custody] = fid;
        emit Register(custody, fid);
    }
}

/// A smart-contract custody address: ERC-1271 signatures by its owner key.
contract OwnedWallet {
    address public owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}
`

/** Anvil's first dev account (funded; pays for deployments and registrations). */
const ANVIL_DEPLOYER = privateKeyToAccount(
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
)

export interface FarcasterChain {
  anvil: AnvilNode
  rpcUrl: string
  idRegistryAddress: Address
  /** Registers a new fid whose custody address is `custody`; resolves to the fid. */
  register(custody: Address): Promise<number>
  /** Deploys an ERC-1271 wallet that accepts `owner`'s signatures (a contract custody address). */
  deployContractWallet(owner: Address): Promise<Address>
  stop(): Promise<void>
}

/**
 * Anvil with chain id 10 and a deployed IdRegistry look-alike.
 *
 * @example
 * const chain = await startFarcasterChain()
 * const custody = privateKeyToAccount(generatePrivateKey())
 * const fid = await chain.register(custody.address)
 */
export async function startFarcasterChain(): Promise<FarcasterChain> {
  const anvil = await startAnvil({ chainId: 10 })
  try {
    const chain = defineChain({
      id: anvil.chainId,
      name: 'Anvil (Optimism)',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    })
    const publicClient = createPublicClient({ chain, transport: http(anvil.rpcUrl) })
    const wallet = createWalletClient({
      account: ANVIL_DEPLOYER,
      chain,
      transport: http(anvil.rpcUrl),
    })
    const { IdRegistry, OwnedWallet } = compileSolidity(FARCASTER_CONTRACTS_SOURCE)
    if (!IdRegistry || !OwnedWallet) throw new Error('Farcaster test contracts did not compile')
    const deploy = async (bytecode: Hex, abi: typeof IdRegistry.abi, args: unknown[] = []) => {
      const hash = await wallet.deployContract({ abi, bytecode, args })
      const receipt = await publicClient.waitForTransactionReceipt({ hash })
      if (!receipt.contractAddress) throw new Error('deployment failed')
      return getAddress(receipt.contractAddress)
    }
    const idRegistryAddress = await deploy(IdRegistry.bytecode, IdRegistry.abi)
    return {
      anvil,
      rpcUrl: anvil.rpcUrl,
      idRegistryAddress,
      async register(custody) {
        const hash = await wallet.writeContract({
          address: idRegistryAddress,
          abi: IdRegistry.abi,
          functionName: 'register',
          args: [custody],
        })
        const receipt = await publicClient.waitForTransactionReceipt({ hash })
        const [event] = parseEventLogs({
          abi: IdRegistry.abi,
          logs: receipt.logs,
          eventName: 'Register',
        }) as unknown as { args: { id: bigint } }[]
        if (!event) throw new Error('register emitted no Register event')
        return Number(event.args.id)
      },
      deployContractWallet: (owner) => deploy(OwnedWallet.bytecode, OwnedWallet.abi, [owner]),
      stop: () => anvil.stop(),
    }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}

// ---------------------------------------------------------------------------
// The Farcaster app

export interface SignInWithFarcasterAppParameters {
  /** The relay's base URL. */
  relayUrl: string
  /** The channel token the QR code / deep link carries. */
  channelToken: string
  /** The key that signs: the custody key, or the owner key of a contract custody address. */
  account: LocalAccount
  fid: number
  /** The address the message names (default `account.address`; a contract wallet for ERC-1271). */
  address?: Address
  /** Profile fields the app reports to the relay. */
  profile?: { username?: string; displayName?: string; bio?: string; pfpUrl?: string }
  /** The message's Issued At (default now); pass the server's test clock. */
  now?: number | Date
  /** Changes to the SIWF message (tests of each check): e.g. `{ domain: 'evil.test' }`. */
  overrides?: Partial<CreateSiweMessageParameters>
  /** Relay auth key header, when the relay wants one. */
  authKey?: string
}

/**
 * Plays the Farcaster app for a channel: reads the sign-in parameters from
 * the relay, builds the SIWF message (EIP-4361, statement 'Farcaster Auth',
 * chain id 10, resources farcaster://fid/<fid> and the custody signer type),
 * signs it (ERC-191) and posts it to /v1/channel/authenticate.
 *
 * @example
 * const { message, signature } = await signInWithFarcasterApp({
 *   relayUrl: relay.url, channelToken, account: custody, fid, now: t.clock.now(),
 * })
 */
export async function signInWithFarcasterApp(
  parameters: SignInWithFarcasterAppParameters,
): Promise<{ message: string; signature: Hex }> {
  const base = parameters.relayUrl.replace(/\/+$/, '')
  const auth = { authorization: `Bearer ${parameters.channelToken}` }
  const statusResponse = await fetch(`${base}/v1/channel/status`, { headers: auth })
  if (statusResponse.status !== 202)
    throw new Error(`channel is not pending on the relay (${statusResponse.status})`)
  const channel = (await statusResponse.json()) as Pick<FakeRelayChannel, 'signatureParams'>
  const params = channel.signatureParams
  const message = createSiweMessage({
    domain: params.domain,
    address: getAddress(parameters.address ?? parameters.account.address),
    statement: 'Farcaster Auth',
    uri: params.siweUri,
    version: '1',
    chainId: 10,
    nonce: params.nonce,
    issuedAt: new Date(parameters.now ?? Date.now()),
    ...(params.expirationTime ? { expirationTime: new Date(params.expirationTime) } : {}),
    ...(params.notBefore ? { notBefore: new Date(params.notBefore) } : {}),
    ...(params.requestId ? { requestId: params.requestId } : {}),
    resources: [`farcaster://fid/${parameters.fid}`, 'farcaster://signer/type/custody'],
    ...parameters.overrides,
  })
  const signature = await parameters.account.signMessage({ message })
  const profile = parameters.profile ?? {}
  const posted = await fetch(`${base}/v1/channel/authenticate`, {
    method: 'POST',
    headers: {
      ...auth,
      'content-type': 'application/json',
      ...(parameters.authKey ? { 'x-farcaster-auth-relay-key': parameters.authKey } : {}),
    },
    body: JSON.stringify({ message, signature, fid: parameters.fid, ...profile }),
  })
  if (posted.status !== 201) throw new Error(`relay refused the signature (${posted.status})`)
  return { message, signature }
}
