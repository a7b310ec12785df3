import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegateBody, userWithRealWallet } from './testing.ts'

// The server stores a delegated share only after checking that, with the
// auth share, it rebuilds THIS wallet's address: a wrong share, another
// secret's share, a tampered or mis-bound ciphertext is 400
// DELEGATION_SHARE_INVALID and nothing is stored or marked delegated.
let t: TestInstance
let user: Awaited<ReturnType<typeof userWithRealWallet>>
let other: Awaited<ReturnType<typeof userWithRealWallet>>
beforeAll(async () => {
  t = await getTestInstance()
  user = await userWithRealWallet(t, 'owner@example.com')
  other = await userWithRealWallet(t, 'other@example.com')
})
afterAll(() => t.close())

const send = (body: object) =>
  t.enclaveRequest(routes.embeddedWalletsDelegate, { token: user.token, body })

async function expectRefusedAndNothingStored(body: object) {
  const res = await send(body)
  expect(res).toMatchObject({ status: 400, body: { code: 'DELEGATION_SHARE_INVALID' } })
  expect(await t.countRows('wallet_delegations')).toBe(0)
  const me = await t.request(routes.usersMe, { token: user.token })
  const wallets = me.body.user.linked_accounts.filter((a: { type: string }) => a.type === 'wallet')
  expect(wallets.every((w: { delegated: boolean }) => w.delegated === false)).toBe(true)
}

it("refuses another secret's device share", async () => {
  const body = await delegateBody(
    t,
    user.userId,
    user.wallet.ethereum,
    'ethereum',
    other.wallet.deviceShare,
  )
  await expectRefusedAndNothingStored(body)
})

it('refuses the auth share sent back as the device share (the same x-coordinate)', async () => {
  const body = await delegateBody(
    t,
    user.userId,
    user.wallet.ethereum,
    'ethereum',
    user.wallet.authShare,
  )
  await expectRefusedAndNothingStored(body)
})

it('refuses a share with one byte changed', async () => {
  const share = Uint8Array.from(user.wallet.deviceShare)
  share[3] = (share[3] ?? 0) ^ 0x01
  const body = await delegateBody(t, user.userId, user.wallet.ethereum, 'ethereum', share)
  await expectRefusedAndNothingStored(body)
})

it('refuses a ciphertext sealed for another user (the binding is checked)', async () => {
  const body = await delegateBody(
    t,
    other.userId,
    user.wallet.ethereum,
    'ethereum',
    user.wallet.deviceShare,
  )
  await expectRefusedAndNothingStored(body)
})

it('refuses a tampered ciphertext and an unknown key id', async () => {
  const body = await delegateBody(
    t,
    user.userId,
    user.wallet.ethereum,
    'ethereum',
    user.wallet.deviceShare,
  )
  const bytes = Buffer.from(body.ciphertext, 'base64url')
  bytes[0] = (bytes[0] ?? 0) ^ 0x80
  await expectRefusedAndNothingStored({ ...body, ciphertext: bytes.toString('base64url') })
  await expectRefusedAndNothingStored({ ...body, key_id: 'not-the-key' })
})

it('the right share is accepted (the refusals were the share’s, nothing else)', async () => {
  const body = await delegateBody(
    t,
    user.userId,
    user.wallet.ethereum,
    'ethereum',
    user.wallet.deviceShare,
  )
  const res = await send(body)
  expect(res.status).toBe(200)
  const wallet = res.body.linked_accounts.find(
    (a: { type: string; address: string }) =>
      a.type === 'wallet' && a.address === user.wallet.ethereum,
  )
  expect(wallet.delegated).toBe(true)
  expect(await t.countRows('wallet_delegations')).toBe(1)
})
