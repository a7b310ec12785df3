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
import { compileSolidity } from '../../test/solidity.ts'
import type { FakeRelayChannel } from './testing-relay.ts'

// The chain and the Farcaster app of the Sign In With Farcaster test peers
// (testing.ts re-exports them, with the relay).

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
