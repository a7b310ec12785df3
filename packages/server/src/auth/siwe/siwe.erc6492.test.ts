import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  keccak256,
  serializeErc6492Signature,
  toHex,
} from 'viem'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilNode, startAnvil } from '../../test/anvil.ts'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { type CompiledContract, compileSolidity } from '../../test/solidity.ts'
import {
  ANVIL_DEPLOYER_KEY,
  failureReason,
  postSiwe,
  SMART_ACCOUNT_SOURCE,
  siweMessage,
  siweNonce,
  WALLET_APP_SETTINGS,
} from './testing.ts'

// Security bar 19: a smart account that is not deployed yet logs in per
// ERC-6492 — its signature is wrapped with the factory call that would
// deploy it, and the server's validator simulates that deployment on the
// message's chain (one eth_call) before asking the account.
let anvil: AnvilNode
let t: TestInstance
let client: ReturnType<typeof createPublicClient>
let factoryAddress: Address
let Factory: CompiledContract

beforeAll(async () => {
  anvil = await startAnvil({ chainId: foundry.id })
  t = await getTestInstance({
    appSettings: WALLET_APP_SETTINGS,
    chainRpcUrls: { [foundry.id]: anvil.rpcUrl },
  })
  const compiled = compileSolidity(SMART_ACCOUNT_SOURCE).SmartAccountFactory
  if (!compiled) throw new Error('SmartAccountFactory did not compile')
  Factory = compiled
  const transport = http(anvil.rpcUrl)
  const wallet = createWalletClient({
    account: privateKeyToAccount(ANVIL_DEPLOYER_KEY),
    chain: foundry,
    transport,
  })
  client = createPublicClient({ chain: foundry, transport })
  const hash = await wallet.deployContract({ abi: Factory.abi, bytecode: Factory.bytecode })
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (!receipt.contractAddress) throw new Error('SmartAccountFactory was not deployed')
  factoryAddress = getAddress(receipt.contractAddress)
})
afterAll(async () => {
  await t?.close()
  await anvil?.stop()
})

/** The counterfactual account of `owner` and the factory call that deploys it. */
async function counterfactual(owner: PrivateKeyAccount, salt: Hex) {
  const address = (await client.readContract({
    address: factoryAddress,
    abi: Factory.abi,
    functionName: 'addressOf',
    args: [owner.address, salt],
  })) as Address
  const deployData = encodeFunctionData({
    abi: Factory.abi,
    functionName: 'deploy',
    args: [owner.address, salt],
  })
  return { address, deployData }
}

describe('SIWE with an ERC-6492 counterfactual account', () => {
  it('logs in through the RPC before the account is deployed, and leaves it undeployed', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const { address, deployData } = await counterfactual(owner, keccak256(toHex('login')))
    expect(await client.getCode({ address })).toBeUndefined()
    const nonce = await siweNonce(t, address)
    const message = siweMessage(t, address, nonce, { chainId: foundry.id })
    const signature = serializeErc6492Signature({
      address: factoryAddress,
      data: deployData,
      signature: await owner.signMessage({ message }),
    })
    const res = await postSiwe(t, { message, signature, chain_id: `eip155:${foundry.id}` })
    expect(res.status).toBe(200)
    expect(res.body.user.linked_accounts[0]).toMatchObject({ type: 'wallet', address })
    // Verification simulates the deployment; nothing is sent on chain.
    expect(await client.getCode({ address })).toBeUndefined()
  })

  it('refuses a wrapped signature by a key that does not own the account', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const { address, deployData } = await counterfactual(owner, keccak256(toHex('forged')))
    const nonce = await siweNonce(t, address)
    const message = siweMessage(t, address, nonce, { chainId: foundry.id })
    const signature = serializeErc6492Signature({
      address: factoryAddress,
      data: deployData,
      signature: await privateKeyToAccount(generatePrivateKey()).signMessage({ message }),
    })
    const res = await postSiwe(t, { message, signature })
    expect(failureReason(res)).toBe('invalid_signature')
  })

  it("refuses a wrapper whose factory deploys another owner's account", async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const attacker = privateKeyToAccount(generatePrivateKey())
    const victim = await counterfactual(owner, keccak256(toHex('victim')))
    const own = await counterfactual(attacker, keccak256(toHex('victim')))
    const nonce = await siweNonce(t, victim.address)
    const message = siweMessage(t, victim.address, nonce, { chainId: foundry.id })
    const signature = serializeErc6492Signature({
      address: factoryAddress,
      data: own.deployData,
      signature: await attacker.signMessage({ message }),
    })
    const res = await postSiwe(t, { message, signature })
    expect(failureReason(res)).toBe('invalid_signature')
  })
})
