import { authResponseSchema, Header, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { z } from 'zod'
import type { RouteDefinition } from '../http/route.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { sessionIdOfOwnNewAccessToken } from './tokens.ts'

// Every route that creates a session binds it to the login's enclave key
// (`startsSession`, http/route.ts). Walked over the registered definitions:
// a future login route that answers with tokens but forgets the flag fails here.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { login_methods: { email: true, guest: true } } })
})
afterAll(() => t.close())

const authKeys = Object.keys(authResponseSchema.shape)

/** The response is the auth response, or an extension of it (OAuth's). */
const answersWithTokens = (def: RouteDefinition) =>
  def.response instanceof z.ZodObject &&
  authKeys.every((key) => key in (def.response as z.ZodObject).shape)

it('every route answering with an auth response starts a session, except refresh', () => {
  const logins = t.server.routes.filter(answersWithTokens)
  expect(logins.length).toBeGreaterThan(0)
  for (const def of logins) {
    const name = `${def.method} ${def.path}`
    if (def.path === routes.sessionRefresh)
      expect({ name, flag: def.startsSession }).toEqual({ name, flag: undefined })
    else expect({ name, flag: def.startsSession }).toEqual({ name, flag: true })
  }
  // The flag is on nothing else, and never on a route that authenticates an existing session.
  for (const def of t.server.routes.filter((d) => d.startsSession)) {
    expect(answersWithTokens(def)).toBe(true)
    expect(def.auth).toBe('none')
  }
  expect(
    t.server.routes
      .filter((d) => d.startsSession)
      .map((d) => d.path)
      .sort(),
  ).toEqual(
    [
      routes.emailAuthenticate,
      routes.smsAuthenticate,
      routes.telegramAuthenticate,
      routes.customJwtAuthenticate,
      routes.guestAuthenticate,
      routes.oauthAuthenticate,
      routes.siweAuthenticate,
      routes.siwsAuthenticate,
      routes.farcasterAuthenticate,
      routes.passkeyRegister,
      routes.passkeyAuthenticate,
      // A requester app's login with a provider app's account (docs/cross-app.md).
      routes.crossAppAuthenticate,
    ].sort(),
  )
})

it('the flag binds for any login method, not only email (guest here)', async () => {
  const res = await t.request(routes.guestAuthenticate, {
    body: { guest_credential: 'g'.repeat(43) },
    headers: { [Header.enclaveKey]: t.enclaveKey.jkt },
  })
  expect(res.status).toBe(200)
  const row = await t.db
    .selectFrom('sessions')
    .select('enclave_jkt')
    .where('id', '=', sessionIdOfOwnNewAccessToken(res.body.token))
    .executeTakeFirstOrThrow()
  expect(row.enclave_jkt).toBe(t.enclaveKey.jkt)
  const malformed = await t.request(routes.guestAuthenticate, {
    body: { guest_credential: 'h'.repeat(43) },
    headers: { [Header.enclaveKey]: 'nope' },
  })
  expect(malformed).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
})
