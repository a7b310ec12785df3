import { verifyMessage } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// A delegated wallet signs personal_sign on the server: the signature
// recovers to the wallet's address (viem verifyMessage), text and hex alike.
let t: TestInstance
let user: Awaited<ReturnType<typeof userWithRealWallet>>
let walletId: string
beforeAll(async () => {
  t = await getTestInstance()
  user = await userWithRealWallet(t, 'signer@example.com')
  expect((await delegate(t, user)).status).toBe(200)
  await setPolicy(t)
  walletId = await walletIdOf(t, user.userId, user.wallet.ethereum)
})
afterAll(() => t.close())

it('signs a UTF-8 message with the wallet key', async () => {
  const message = 'Hello from the app backend ✓'
  const res = await rpc(t, walletId, { method: 'personal_sign', params: { message } })
  expect(res.status).toBe(200)
  expect(res.body).toMatchObject({ method: 'personal_sign', data: { encoding: 'hex' } })
  const ok = await verifyMessage({
    address: user.wallet.ethereum,
    message,
    signature: res.body.data.signature,
  })
  expect(ok).toBe(true)
})

it('signs hex bytes as raw bytes', async () => {
  const res = await rpc(t, walletId, {
    method: 'personal_sign',
    params: { message: '0xdeadbeef', encoding: 'hex' },
  })
  expect(res.status).toBe(200)
  const ok = await verifyMessage({
    address: user.wallet.ethereum,
    message: { raw: '0xdeadbeef' },
    signature: res.body.data.signature,
  })
  expect(ok).toBe(true)
  const wrong = await verifyMessage({
    address: user.wallet.ethereum,
    message: '0xdeadbeef',
    signature: res.body.data.signature,
  })
  expect(wrong).toBe(false)
})
