import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

/*
 * Terms (spec 02 "Terms consent", §7 "Accept terms: POST, empty body"):
 * acceptance is stored on the user (has_accepted_terms).
 */

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    appSettings: {
      require_users_accept_terms: true,
      terms_and_conditions_url: 'https://example.com/terms',
      privacy_policy_url: 'https://example.com/privacy',
    },
  })
})
afterAll(() => t.close())

const accept = (token?: string, body?: unknown) =>
  t.request(routes.usersAcceptTerms, {
    method: 'POST',
    ...(token ? { token } : {}),
    ...(body !== undefined ? { body } : {}),
  })

describe('accept terms', () => {
  it('a new user has not accepted; POST with an empty body records it and returns the user', async () => {
    const session = await t.login('terms@example.com')
    expect(session.user.has_accepted_terms).toBe(false)
    const res = await accept(session.token ?? '')
    expect(res).toMatchObject({
      status: 200,
      body: { id: session.user.id, has_accepted_terms: true, linked_accounts: [{ type: 'email' }] },
    })
    const me = await t.request(routes.usersMe, { token: session.token ?? '' })
    expect(me.body.user.has_accepted_terms).toBe(true)
    // A later login carries it too.
    const again = await t.login('terms@example.com')
    expect(again.user.has_accepted_terms).toBe(true)
  })

  it('is idempotent', async () => {
    const session = await t.login('twice@example.com')
    expect((await accept(session.token ?? '')).body.has_accepted_terms).toBe(true)
    expect(await accept(session.token ?? '', {})).toMatchObject({
      status: 200,
      body: { has_accepted_terms: true },
    })
  })

  it('touches only the caller', async () => {
    const a = await t.login('a-terms@example.com')
    const b = await t.login('b-terms@example.com')
    await accept(a.token ?? '')
    const me = await t.request(routes.usersMe, { token: b.token ?? '' })
    expect(me.body.user.has_accepted_terms).toBe(false)
  })

  it('needs a signed-in user', async () => {
    expect(await accept()).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
  })

  it('takes no fields', async () => {
    const session = await t.login('fields@example.com')
    const res = await accept(session.token ?? '', { accepted: true })
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
  })

  it('is not a GET', async () => {
    const session = await t.login('get@example.com')
    const res = await t.request(routes.usersAcceptTerms, {
      method: 'GET',
      token: session.token ?? '',
    })
    expect(res.status).toBe(404)
  })
})
