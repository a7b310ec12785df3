import { type Address, createPublicClient, createWalletClient, getAddress, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilNode, startAnvil } from '../../test/anvil.ts'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { compileSolidity } from '../../test/solidity.ts'
import {
  ANVIL_DEPLOYER_KEY,
  failureReason,
  postSiwe,
  SMART_ACCOUNT_SOURCE,
  siweMessage,
  siweNonce,
  siweSignIn,
  WALLET_APP_SETTINGS,
} from './testing.ts'

// Security bar 19: a deployed contract account logs in per ERC-1271 — the
// server asks the contract, on the message's chain, whether the signature
// is its own (isValidSignature returns 0x1626ba7e).
let anvil: AnvilNode
let t: TestInstance
let accountAddress: Address
const owner = privateKeyToAccount(generatePrivateKey())

beforeAll(async () => {
  anvil = await startAnvil({ chainId: foundry.id })
  t = await getTestInstance({
    appSettings: WALLET_APP_SETTINGS,
    chainRpcUrls: { [foundry.id]: anvil.rpcUrl },
  })
  const { SmartAccount } = compileSolidity(SMART_ACCOUNT_SOURCE)
  if (!SmartAccount) throw new Error('SmartAccount did not compile')
  const transport = http(anvil.rpcUrl)
  const wallet = createWalletClient({
    account: privateKeyToAccount(ANVIL_DEPLOYER_KEY),
    chain: foundry,
    transport,
  })
  const client = createPublicClient({ chain: foundry, transport })
  const hash = await wallet.deployContract({
    abi: SmartAccount.abi,
    bytecode: SmartAccount.bytecode,
    args: [owner.address],
  })
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (!receipt.contractAddress) throw new Error('SmartAccount was not deployed')
  accountAddress = getAddress(receipt.contractAddress)
})
afterAll(async () => {
  await t?.close()
  await anvil?.stop()
})

/** A SIWE login of the contract account, the message signed by `signer`. */
async function contractLogin(signer = owner, chainId: number = foundry.id) {
  const nonce = await siweNonce(t, accountAddress)
  const message = siweMessage(t, accountAddress, nonce, { chainId })
  return postSiwe(t, { message, signature: await signer.signMessage({ message }) })
}

describe('SIWE with an ERC-1271 contract account', () => {
  it("logs in with the contract's address and its owner's signature", async () => {
    const res = await contractLogin()
    expect(res.status).toBe(200)
    expect(res.body.is_new_user).toBe(true)
    expect(res.body.user.linked_accounts[0]).toMatchObject({
      type: 'wallet',
      address: accountAddress,
      chain_type: 'ethereum',
      chain_id: `eip155:${foundry.id}`,
    })
    const again = await contractLogin()
    expect(again.body).toMatchObject({ is_new_user: false, user: { id: res.body.user.id } })
  })

  it('refuses a signature by another key', async () => {
    const res = await contractLogin(privateKeyToAccount(generatePrivateKey()))
    expect(res.status).toBe(400)
    expect(failureReason(res)).toBe('invalid_signature')
  })

  it('can not verify a contract account on a chain without an RPC endpoint', async () => {
    const res = await contractLogin(owner, 10)
    expect(failureReason(res)).toBe('invalid_signature')
  })

  it('still verifies EOAs on a chain with an endpoint', async () => {
    const eoa = privateKeyToAccount(generatePrivateKey())
    const res = await siweSignIn(t, eoa, { fields: { chainId: foundry.id } })
    expect(res.status).toBe(200)
  })

  it("answers rpc_error when the chain's endpoint is down or serves another chain", async () => {
    const endpoints: Array<Record<number, string>> = [
      { [foundry.id]: 'http://127.0.0.1:9' },
      // Anvil (31337) configured as the endpoint of chain 1.
      { 1: anvil.rpcUrl },
    ]
    for (const chainRpcUrls of endpoints) {
      const other = await getTestInstance({ appSettings: WALLET_APP_SETTINGS, chainRpcUrls })
      try {
        const chainId = Number(Object.keys(chainRpcUrls)[0])
        const nonce = await siweNonce(other, accountAddress)
        const message = siweMessage(other, accountAddress, nonce, { chainId })
        const signature = await owner.signMessage({ message })
        expect(failureReason(await postSiwe(other, { message, signature }))).toBe('rpc_error')
      } finally {
        await other.close()
      }
    }
  })
})
