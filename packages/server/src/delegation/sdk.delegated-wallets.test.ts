import { ed25519 } from '@noble/curves/ed25519.js'
import { verifyMessage, verifyTypedData } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createLatchkeyServerClient, LatchkeyApiError } from '../sdk/index.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { type Listening, listen } from '../test/listen.ts'
import { delegate, setPolicy, userWithRealWallet } from './testing.ts'

// The server SDK's `wallets` calls over HTTP against a real server: the
// backend finds the user's wallet ids with getUserWallets, signs Ethereum and
// Solana messages with them, and a refusal surfaces as a LatchkeyApiError
// with the server's code.
let t: TestInstance
let http: Listening
let user: Awaited<ReturnType<typeof userWithRealWallet>>
let latchkey: ReturnType<typeof createLatchkeyServerClient>
let ethId: string
let solId: string
beforeAll(async () => {
  t = await getTestInstance()
  http = await listen(t.server.app.fetch)
  user = await userWithRealWallet(t, 'sdk-delegated@example.com')
  expect((await delegate(t, user, 'ethereum')).status).toBe(200)
  expect((await delegate(t, user, 'solana')).status).toBe(200)
  await setPolicy(t, { methods: ['personal_sign', 'eth_signTypedData_v4', 'signMessage'] })
  latchkey = createLatchkeyServerClient({
    url: `http://127.0.0.1:${http.port}`,
    appId: t.app.id,
    appSecret: t.appSecret,
  })
  const wallets = await latchkey.getUserWallets(user.userId)
  ethId = wallets.find((w) => w.chain_type === 'ethereum')?.id ?? ''
  solId = wallets.find((w) => w.chain_type === 'solana')?.id ?? ''
  expect(wallets.every((w) => w.delegated)).toBe(true)
})
afterAll(async () => {
  await http?.close()
  await t?.close()
})

it('ethereum.signMessage and signTypedData verify for the wallet', async () => {
  const signature = await latchkey.wallets.ethereum.signMessage(ethId, 'from the SDK')
  expect(
    await verifyMessage({ address: user.wallet.ethereum, message: 'from the SDK', signature }),
  ).toBe(true)
  const raw = await latchkey.wallets.ethereum.signMessage(ethId, { raw: '0x0102' })
  expect(
    await verifyMessage({
      address: user.wallet.ethereum,
      message: { raw: '0x0102' },
      signature: raw,
    }),
  ).toBe(true)
  const types = { Ping: [{ name: 'n', type: 'uint256' }] }
  const typed = await latchkey.wallets.ethereum.signTypedData(ethId, {
    domain: { name: 'SDK', chainId: 1 },
    types,
    primary_type: 'Ping',
    message: { n: '7' },
  })
  expect(
    await verifyTypedData({
      address: user.wallet.ethereum,
      domain: { name: 'SDK', chainId: 1 },
      types,
      primaryType: 'Ping',
      message: { n: 7n },
      signature: typed,
    }),
  ).toBe(true)
})

it('solana.signMessage verifies with ed25519', async () => {
  const message = new TextEncoder().encode('gm')
  const signature = await latchkey.wallets.solana.signMessage(solId, message)
  expect(ed25519.verify(signature, message, user.wallet.solanaPublicKey)).toBe(true)
})

it("a refusal is a LatchkeyApiError with the server's code", async () => {
  const error = await latchkey.wallets.ethereum
    .sendTransaction(ethId, {
      caip2: 'eip155:1',
      transaction: { to: '0x000000000000000000000000000000000000bEEF', value: '1' },
    })
    .catch((e: unknown) => e)
  expect(error).toBeInstanceOf(LatchkeyApiError)
  expect(error).toMatchObject({ code: 'DELEGATION_POLICY_VIOLATION', status: 403 })
})
