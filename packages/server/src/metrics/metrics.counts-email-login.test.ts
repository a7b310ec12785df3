import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'
import { labelValues, METRICS_TOKEN, sample, scrape } from './scrape.test-helper.ts'

// An email login end to end (send the code, read it from the dev mailbox,
// authenticate) shows up as one email login, and the HTTP counters name the
// routes by their templates: no app id, address, code or token in a label.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ metrics: { token: METRICS_TOKEN } })
})
afterAll(() => t?.close())

const REQUESTS = 'latchkey_http_requests_total'

it('counts an email login and labels requests by route template', async () => {
  const email = 'metrics-login@example.com'
  expect((await t.request(routes.emailInit, { body: { email } })).status).toBe(200)
  const mailbox = await t.request(`${routes.devMailbox}?to=${encodeURIComponent(email)}`, {
    appId: null,
  })
  expect(mailbox.status).toBe(200)
  const code: string = mailbox.body.messages[0].code
  const auth = await t.request(routes.emailAuthenticate, {
    body: { email, code },
    headers: { 'latchkey-enclave-key': t.enclaveKey.jkt },
  })
  expect(auth.status).toBe(200)
  const token: string = auth.body.token
  expect((await t.request(routes.appConfig(t.app.id))).status).toBe(200)
  expect((await t.request(`/no/such/path/${t.app.id}`)).status).toBe(404)

  const text = await scrape(t)
  expect(sample(text, 'latchkey_logins_total', { method: 'email' })).toBe(1)
  expect(sample(text, 'latchkey_logins_total', { method: 'sms' })).toBe(0)
  const counted = (method: string, route: string, status: string) =>
    sample(text, REQUESTS, { method, route, status })
  expect(counted('POST', routes.emailInit, '200')).toBe(1)
  expect(counted('POST', routes.emailAuthenticate, '200')).toBe(1)
  expect(counted('GET', routes.devMailbox, '200')).toBe(1)
  expect(counted('GET', '/api/v1/apps/:app_id', '200')).toBe(1)
  expect(counted('GET', 'unmatched', '404')).toBe(1)
  expect(
    sample(text, 'latchkey_http_request_duration_seconds_count', {
      method: 'POST',
      route: routes.emailAuthenticate,
    }),
  ).toBe(1)
  for (const secret of [t.app.id, email, code, token, '/no/such/path'])
    expect(text).not.toContain(secret)
  expect(labelValues(text, REQUESTS, 'route')).toEqual(
    [
      routes.devMailbox,
      '/api/v1/apps/:app_id',
      routes.emailAuthenticate,
      routes.emailInit,
      'unmatched',
    ].sort(),
  )
})

it('counts wallet operations: create, auth share release', async () => {
  const auth = await t.login('metrics-wallet@example.com', { enclaveKey: t.enclaveKey })
  const token = auth.token ?? ''
  const body = hdBody()
  expect((await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body })).status).toBe(200)
  const share = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
    token,
    body: { entropy_id: body.entropy_id },
  })
  expect(share.status).toBe(200)

  const text = await scrape(t)
  const operation = (name: string) =>
    sample(text, 'latchkey_wallet_operations_total', { operation: name })
  expect(operation('create')).toBe(1)
  expect(operation('auth_share_release')).toBe(1)
  expect(operation('import')).toBe(0)
  expect(operation('recovery_release')).toBe(0)
  expect(sample(text, 'latchkey_logins_total', { method: 'email' })).toBe(2)
  expect(text).not.toContain(body.entropy_id)
})
