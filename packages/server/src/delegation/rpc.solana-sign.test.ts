import { ed25519 } from '@noble/curves/ed25519.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// Solana on the server: signMessage is ed25519 over the message bytes and
// verifies with the wallet's public key; signTransaction signs the message
// part of the wire transaction and fills the wallet's signature slot. An
// Ethereum method on a Solana wallet is refused.
let t: TestInstance
let user: Awaited<ReturnType<typeof userWithRealWallet>>
let walletId: string
beforeAll(async () => {
  t = await getTestInstance()
  user = await userWithRealWallet(t, 'solana@example.com')
  expect((await delegate(t, user, 'solana')).status).toBe(200)
  await setPolicy(t)
  walletId = await walletIdOf(t, user.userId, user.wallet.solana)
})
afterAll(() => t.close())

it('signMessage verifies with ed25519 for the wallet', async () => {
  const message = new TextEncoder().encode('Sign in to the app backend')
  const res = await rpc(t, walletId, {
    method: 'signMessage',
    params: { message: Buffer.from(message).toString('base64'), encoding: 'base64' },
  })
  expect(res).toMatchObject({
    status: 200,
    body: { method: 'signMessage', data: { encoding: 'base64' } },
  })
  const signature = Buffer.from(res.body.data.signature, 'base64')
  expect(ed25519.verify(signature, message, user.wallet.solanaPublicKey)).toBe(true)
})

it('signTransaction fills the wallet slot with a signature of the message', async () => {
  // A legacy message: header (1 signer, 0, 1 read-only unsigned), 2 keys
  // (the wallet, the system program), a blockhash, no instructions.
  const message = Uint8Array.from([
    1,
    0,
    1,
    2,
    ...user.wallet.solanaPublicKey,
    ...new Uint8Array(32),
    ...new Uint8Array(32).fill(7),
    0,
  ])
  const wire = Uint8Array.from([1, ...new Uint8Array(64), ...message])
  const res = await rpc(t, walletId, {
    method: 'signTransaction',
    params: { transaction: Buffer.from(wire).toString('base64'), encoding: 'base64' },
  })
  expect(res.status).toBe(200)
  const signed = Buffer.from(res.body.data.signed_transaction, 'base64')
  expect(signed.subarray(65)).toEqual(Buffer.from(message))
  expect(ed25519.verify(signed.subarray(1, 65), message, user.wallet.solanaPublicKey)).toBe(true)
})

it('refuses a transaction the wallet does not sign, and Ethereum methods', async () => {
  const stranger = Uint8Array.from([
    1,
    0,
    0,
    1,
    ...new Uint8Array(32).fill(9),
    ...new Uint8Array(32),
    0,
  ])
  const wire = Uint8Array.from([1, ...new Uint8Array(64), ...stranger])
  const res = await rpc(t, walletId, {
    method: 'signTransaction',
    params: { transaction: Buffer.from(wire).toString('base64') },
  })
  expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
  const eth = await rpc(t, walletId, { method: 'personal_sign', params: { message: 'x' } })
  expect(eth).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
})
