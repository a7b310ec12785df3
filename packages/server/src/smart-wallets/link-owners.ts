import {
  type Address,
  concat,
  createPublicClient,
  decodeFunctionData,
  encodePacked,
  getContractAddress,
  type Hex,
  http,
  isAddressEqual,
  isErc6492Signature,
  keccak256,
  type PublicClient,
  pad,
  parseAbi,
  parseErc6492Signature,
  recoverMessageAddress,
} from 'viem'
import { walletLoginFailed } from '../auth/siwe/external-wallet.ts'
import { SIWE_RPC_TIMEOUT_MS } from '../auth/siwe/verify.ts'

/*
 * Who controls a smart account (smart-wallets/link.ts, docs/smart-wallets.md
 * "The smart_wallet link"): the on-chain reads that tie a smart account to
 * the embedded Ethereum wallet that owns it. Each throws WALLET_LOGIN_FAILED
 * with a `reason` when the account is not the owner's.
 */

/** eth-infinitism SimpleAccountFactory v0.7 at its public address (permissionless's default). */
export const SIMPLE_ACCOUNT_FACTORY_07: Address = '0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985'

/** Safe v1.4.1's proxy factory and singletons (Safe, SafeL2) at their public addresses. */
export const SAFE_141 = {
  proxyFactory: '0x4e1DCf7AD4e460CfD30791CCC4F9c8a4f820ec67' as Address,
  singletons: [
    '0x41675C099F32341bf84BFc5382aF534df5C7461a',
    '0x29fcB43b46531BcA003ddC8FCB67FFE91900C762',
  ] as readonly Address[],
}

const simpleAccountFactoryAbi = parseAbi([
  'function getAddress(address owner, uint256 salt) view returns (address)',
])
const safeAbi = parseAbi([
  'function getOwners() view returns (address[])',
  'function VERSION() view returns (string)',
  'function setup(address[] _owners, uint256 _threshold, address to, bytes data, address fallbackHandler, address paymentToken, uint256 payment, address paymentReceiver)',
])
const safeProxyFactoryAbi = parseAbi([
  'function createProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns (address)',
  'function proxyCreationCode() pure returns (bytes)',
])

/**
 * A public client of the chain's endpoint, checked to serve `chainId`;
 * `rpc_required` without an endpoint, `rpc_error` when it fails or serves
 * another chain.
 */
export async function linkChainClient(
  rpcUrl: string | undefined,
  chainId: number,
): Promise<PublicClient> {
  if (!rpcUrl) throw walletLoginFailed('rpc_required')
  const client = createPublicClient({
    transport: http(rpcUrl, { timeout: SIWE_RPC_TIMEOUT_MS, retryCount: 1 }),
  })
  const served = await onChain(() => client.getChainId())
  if (served !== chainId) throw walletLoginFailed('rpc_error')
  return client
}

/** An RPC read; its failure is `rpc_error` (the proof is not known to be wrong). */
async function onChain<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch {
    throw walletLoginFailed('rpc_error')
  }
}

/**
 * The EOA that signed the message (EIP-191), or `invalid_signature` when the
 * signature is not a 65-byte ECDSA one.
 */
export async function ecdsaSigner(message: string, signature: Hex): Promise<Address> {
  if (signature.length !== 132) throw walletLoginFailed('invalid_signature')
  try {
    return await recoverMessageAddress({ message, signature })
  } catch {
    throw walletLoginFailed('invalid_signature')
  }
}

/**
 * SimpleAccount v0.7 answers no ERC-1271, so its owner signs instead: the
 * account must be the one SimpleAccountFactory v0.7 makes for that owner at
 * salt 0 (`getAddress(owner, 0)`, a CREATE2 address: it commits to the owner,
 * deployed or not, and SimpleAccount has no owner change). Salt 0 is the
 * index core creates; an account at another salt is refused.
 */
export async function assertSimpleAccountOf(
  client: PublicClient,
  account: Address,
  owner: Address,
): Promise<void> {
  const expected = await onChain(() =>
    client.readContract({
      address: SIMPLE_ACCOUNT_FACTORY_07,
      abi: simpleAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner, 0n],
    }),
  )
  if (!isAddressEqual(expected, account)) throw walletLoginFailed('not_owners_account')
}

/**
 * The owners of a Safe whose ERC-1271 / ERC-6492 signature already verified.
 * Deployed: its `getOwners()`, and it must say it is v1.4.1. Counterfactual:
 * the signature must be ERC-6492-wrapped with a call to Safe's v1.4.1 proxy
 * factory, creating a proxy of a v1.4.1 singleton at exactly this address
 * (CREATE2 over the initializer: the address commits to it), and the owners
 * are those of the initializer's `setup` call. A wrapper whose factory or
 * address differs proves nothing about the owners and is refused.
 */
export async function safeOwners(
  client: PublicClient,
  account: Address,
  signature: Hex,
): Promise<readonly Address[]> {
  const code = await onChain(() => client.getCode({ address: account }))
  if (code && code !== '0x') {
    const [owners, version] = await onChain(() =>
      Promise.all([
        client.readContract({ address: account, abi: safeAbi, functionName: 'getOwners' }),
        client.readContract({ address: account, abi: safeAbi, functionName: 'VERSION' }),
      ]),
    )
    if (version !== '1.4.1') throw walletLoginFailed('not_a_safe')
    return owners
  }
  if (!isErc6492Signature(signature)) throw walletLoginFailed('not_a_safe')
  const wrapper = parseErc6492Signature(signature)
  if (!wrapper.address || !wrapper.data || !isAddressEqual(wrapper.address, SAFE_141.proxyFactory))
    throw walletLoginFailed('not_a_safe')
  const { singleton, initializer, saltNonce } = decodeSafeDeployment(wrapper.data)
  const creationCode = await onChain(() =>
    client.readContract({
      address: SAFE_141.proxyFactory,
      abi: safeProxyFactoryAbi,
      functionName: 'proxyCreationCode',
    }),
  )
  // SafeProxyFactory v1.4.1 `deployProxy`: salt = keccak256(keccak256(initializer) ‖ saltNonce).
  const created = getContractAddress({
    opcode: 'CREATE2',
    from: SAFE_141.proxyFactory,
    salt: keccak256(encodePacked(['bytes32', 'uint256'], [keccak256(initializer), saltNonce])),
    bytecode: concat([creationCode, pad(singleton)]),
  })
  if (!isAddressEqual(created, account)) throw walletLoginFailed('not_a_safe')
  const setup = decodeFunctionData({ abi: safeAbi, data: initializer })
  if (setup.functionName !== 'setup') throw walletLoginFailed('not_a_safe')
  return setup.args[0]
}

/** The factory call of an ERC-6492 wrapper: a v1.4.1 singleton, the initializer and the salt. */
function decodeSafeDeployment(data: Hex) {
  try {
    const call = decodeFunctionData({ abi: safeProxyFactoryAbi, data })
    if (call.functionName !== 'createProxyWithNonce') throw new Error(call.functionName)
    const [singleton, initializer, saltNonce] = call.args
    if (!SAFE_141.singletons.some((s) => isAddressEqual(s, singleton))) throw new Error(singleton)
    return { singleton, initializer, saltNonce }
  } catch {
    throw walletLoginFailed('not_a_safe')
  }
}
