import { createPublicClient, createWalletClient, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type AnvilNode, startAnvil } from '../test/anvil.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { setWebhookEndpoint } from '../webhooks/endpoints.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// eth_sendTransaction end to end on a real chain (Anvil): the server rebuilds
// the delegated key, fills nonce, gas and fees from the chain's RPC
// (LATCHKEY_RPC_URLS), signs, broadcasts; the transaction is mined from the
// user's wallet, the app gets a `transaction.sent` webhook, and a second
// send takes the next nonce.
const ANVIL_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
let anvil: AnvilNode
let t: TestInstance
let user: Awaited<ReturnType<typeof userWithRealWallet>>
let walletId: string
const chain = () => createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) })
beforeAll(async () => {
  anvil = await startAnvil({ chainId: foundry.id })
  // No background delivery: the test reads the queued event.
  const options = { webhooks: { pollIntervalMs: 0 } }
  t = await getTestInstance({ ...options, chainRpcUrls: { [foundry.id]: anvil.rpcUrl } })
  user = await userWithRealWallet(t, 'sender@example.com')
  expect((await delegate(t, user)).status).toBe(200)
  await setPolicy(t, { chains: [`eip155:${foundry.id}`], maxValuePerTx: parseEther('1') })
  await setWebhookEndpoint({ db: t.db, secrets: t.server.services.secrets }, t.app.id, {
    url: 'http://127.0.0.1:9/hooks',
    production: false,
    events: ['transaction.sent'],
  })
  walletId = await walletIdOf(t, user.userId, user.wallet.ethereum)
  // Fund the user's wallet from Anvil's first account.
  const funder = createWalletClient({
    account: privateKeyToAccount(ANVIL_KEY),
    chain: foundry,
    transport: http(anvil.rpcUrl),
  })
  const hash = await funder.sendTransaction({ to: user.wallet.ethereum, value: parseEther('2') })
  await chain().waitForTransactionReceipt({ hash })
}, 60_000)
afterAll(async () => {
  await t?.close()
  await anvil?.stop()
})

const send = (value: bigint) =>
  rpc(t, walletId, {
    method: 'eth_sendTransaction',
    caip2: `eip155:${foundry.id}`,
    params: { transaction: { to: RECIPIENT, value: `0x${value.toString(16)}` } },
  })

it('sends from the delegated wallet and the transaction is mined', async () => {
  const before = await chain().getBalance({ address: RECIPIENT })
  const res = await send(parseEther('0.25'))
  expect(res).toMatchObject({
    status: 200,
    body: { method: 'eth_sendTransaction', data: { caip2: `eip155:${foundry.id}` } },
  })
  const receipt = await chain().waitForTransactionReceipt({ hash: res.body.data.hash })
  expect(receipt.status).toBe('success')
  expect(receipt.from.toLowerCase()).toBe(user.wallet.ethereum.toLowerCase())
  expect(await chain().getBalance({ address: RECIPIENT })).toBe(before + parseEther('0.25'))

  const events = await t.db
    .selectFrom('webhook_outbox')
    .select(['event_type', 'payload'])
    .where('event_type', '=', 'transaction.sent')
    .execute()
  expect(events).toHaveLength(1)
  expect(JSON.parse(events[0]?.payload ?? '{}').data).toMatchObject({
    user_id: user.userId,
    wallet: { address: user.wallet.ethereum.toLowerCase(), chain_type: 'ethereum' },
    caip2: `eip155:${foundry.id}`,
    transaction_hash: res.body.data.hash,
  })
})

it('a second send takes the next nonce', async () => {
  const res = await send(parseEther('0.1'))
  expect(res.status).toBe(200)
  const tx = await chain().getTransaction({ hash: res.body.data.hash })
  expect(tx.nonce).toBe(1)
  expect((await chain().waitForTransactionReceipt({ hash: res.body.data.hash })).status).toBe(
    'success',
  )
})

it('a value over the policy is refused before anything is sent', async () => {
  const nonce = await chain().getTransactionCount({ address: user.wallet.ethereum })
  const res = await send(parseEther('1.5'))
  expect(res).toMatchObject({ status: 403, body: { code: 'DELEGATION_POLICY_VIOLATION' } })
  expect(await chain().getTransactionCount({ address: user.wallet.ethereum })).toBe(nonce)
})
