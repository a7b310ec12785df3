import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getOAuthTestInstance, type OAuthTestInstance } from '../auth/oauth/oauth.fixture.ts'

/*
 * Account transfer of an OAuth account (docs/access-control.md): offered
 * after the provider's code was exchanged, moved by provider + subject.
 */

let t: OAuthTestInstance
beforeAll(async () => {
  t = await getOAuthTestInstance()
})
afterAll(() => t.close())

const flow = (r: { code: string; state: string; verifier: string }) => ({
  provider: 'google',
  authorization_code: r.code,
  state_code: r.state,
  code_verifier: r.verifier,
})

it('moves a Google account from its only user to the signed-in user', async () => {
  const v = await t.request(routes.oauthAuthenticate, {
    body: {
      ...flow(await t.redirect('google', { accountId: 'alice-sub' })),
      mode: 'login-or-sign-up',
    },
  })
  expect(v.status).toBe(200)
  const u = await t.login('collector@example.com')
  const token = u.token ?? ''
  const link = await t.request(routes.oauthLink, {
    token,
    body: flow(await t.redirect('google', { token, accountId: 'alice-sub' })),
  })
  expect(link.body).toMatchObject({
    code: 'ACCOUNT_TRANSFER_REQUIRED',
    // The subject travels in the offer: the page names it in oauth/transfer.
    details: {
      account: { type: 'google', display_name: 'alice@example.com', subject: 'alice-sub' },
    },
  })

  const wrongSubject = await t.request(routes.oauthTransfer, {
    token,
    body: { nonce: link.body.details.nonce, provider: 'google', subject: 'carol-sub' },
  })
  expect(wrongSubject.body.code).toBe('TRANSFER_EXPIRED')

  const res = await t.request(routes.oauthTransfer, {
    token,
    body: {
      nonce: link.body.details.nonce,
      provider: 'google',
      subject: 'alice-sub',
      accountType: 'google',
    },
  })
  expect(res.status).toBe(200)
  expect(res.body.linked_accounts).toEqual([
    expect.objectContaining({ type: 'email' }),
    expect.objectContaining({ type: 'google', subject: 'alice-sub', email: 'alice@example.com' }),
  ])
  const gone = await t.db
    .selectFrom('users')
    .select('id')
    .where('id', '=', v.body.user.id)
    .executeTakeFirst()
  expect(gone).toBeUndefined()

  const again = await t.request(routes.oauthAuthenticate, {
    body: {
      ...flow(await t.redirect('google', { accountId: 'alice-sub' })),
      mode: 'login-or-sign-up',
    },
  })
  expect(again.body).toMatchObject({ is_new_user: false, user: { id: u.user.id } })
})

it('an OAuth provider named custom, guest or passkey is not transferable', async () => {
  const u = await t.login('provider-check@example.com')
  const res = await t.request(routes.oauthTransfer, {
    token: u.token ?? '',
    body: { nonce: 'n', provider: 'passkey', subject: 's' },
  })
  expect(res.body.code).toBe('TRANSFER_NOT_ALLOWED')
})
