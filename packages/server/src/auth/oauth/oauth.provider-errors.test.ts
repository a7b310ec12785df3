import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { pkce, stateCode } from '../../test/cloud.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../../test/instance.ts'

// A provider that is down, failing or answering nonsense is 424
// OAUTH_PROVIDER_ERROR (retryable), never a crash, and no user is created.
let t: TestInstance
let mode: 'down' | 'garbage' = 'down'
const provider = createServer((_req, res) => {
  if (mode === 'down') {
    res.writeHead(503)
    res.end('unavailable')
  } else {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ token_type: 'bearer' }))
  }
})
beforeAll(async () => {
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', () => r()))
  const base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`
  t = await getTestInstance({
    oauth: {
      endpoints: {
        discord: { tokenUrl: `${base}/token`, userinfoUrl: `${base}/me` },
        spotify: { tokenUrl: 'http://127.0.0.1:1/token' },
      },
    },
    appSettings: { login_methods: { discord: true, spotify: true } },
  })
  for (const p of ['discord', 'spotify'] as const)
    await t.server.setAppProviderCredentials(t.app.id, {
      provider: p,
      client_id: 'cid',
      client_secret: 'secret',
    })
})
afterAll(async () => {
  await t.close()
  await new Promise<void>((r) => provider.close(() => r()))
})

async function attempt(p: 'discord' | 'spotify') {
  const { verifier, challenge } = pkce()
  const state = stateCode()
  const init = await t.request(routes.oauthInit, {
    body: {
      provider: p,
      redirect_to: `${TEST_ORIGIN}/`,
      code_challenge: challenge,
      state_code: state,
    },
  })
  expect(init.status).toBe(200)
  return t.request(routes.oauthAuthenticate, {
    body: { provider: p, authorization_code: 'code', state_code: state, code_verifier: verifier },
  })
}

it.each([
  ['unreachable', 'spotify', 'down'],
  ['answering 503', 'discord', 'down'],
  ['answering without an access token', 'discord', 'garbage'],
] as const)('a provider %s is 424 OAUTH_PROVIDER_ERROR', async (_label, p, m) => {
  mode = m
  const users = await t.countRows('users')
  const res = await attempt(p)
  expect(res).toMatchObject({ status: 424, body: { code: 'OAUTH_PROVIDER_ERROR' } })
  expect(await t.countRows('users')).toBe(users)
})
