import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppRecord } from '../apps/service.ts'
import { type FakeTurnstile, startFakeTurnstile } from '../test/fakes/turnstile.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'

// Security bar 49 (Turnstile, CF server-side validation): siteverify's
// `hostname` must be the hostname of the request's app origin. An answer
// without one, or naming another site — even another origin of the same
// app — is refused with CAPTCHA_FAILED, and the login start does nothing.
const SECRET = '0x4AAAAAAAtest-secret-key-0123456789'
const SITE_KEY = '1x00000000000000000000AA'
const SHOP_ORIGIN = 'https://shop.example:8443'
let t: TestInstance
let cf: FakeTurnstile
let app: AppRecord
let email = 0

const send = (token: string, origin: string | null) =>
  t.request(routes.emailInit, {
    body: { email: `hostname${++email}@example.com`, token },
    appId: app.id,
    origin,
  })
const failed = { status: 403, body: { code: 'CAPTCHA_FAILED' } }

beforeAll(async () => {
  cf = await startFakeTurnstile({ secret: SECRET, now: () => t.clock.now() })
  t = await getTestInstance({ captcha: { turnstileSiteverifyUrl: cf.url } })
  app = await t.createApp({ captcha_enabled: true, captcha_site_key: SITE_KEY }, [
    TEST_ORIGIN,
    SHOP_ORIGIN,
  ])
  await t.server.setAppProviderCredentials(app.id, { provider: 'turnstile', secret_key: SECRET })
})
afterAll(async () => {
  await t.close()
  await cf.close()
})

describe("the hostname of the request's app origin passes", () => {
  it('app.test from http://app.test', async () => {
    expect((await send(cf.issueToken({ hostname: 'app.test' }), TEST_ORIGIN)).status).toBe(200)
  })

  it('shop.example from https://shop.example:8443 (the port is not part of the hostname)', async () => {
    expect((await send(cf.issueToken({ hostname: 'shop.example' }), SHOP_ORIGIN)).status).toBe(200)
  })
})

describe('anything else is CAPTCHA_FAILED, and nothing is sent', () => {
  it.each([
    ['no hostname at all', null],
    ['an empty hostname', ''],
    ['another site', 'evil.example'],
    ['another origin of the same app (solved on the shop, sent from app.test)', 'shop.example'],
    ['a look-alike with the right prefix', 'app.test.evil.example'],
    ['a look-alike with the right suffix', 'evil-app.test'],
    ['a subdomain', 'www.app.test'],
  ])('%s', async (_, hostname) => {
    const mails = await t.countRows('dev_mailbox')
    expect(await send(cf.issueToken({ hostname }), TEST_ORIGIN)).toMatchObject(failed)
    expect(await t.countRows('dev_mailbox')).toBe(mails)
  })

  it("an Origin that is not one of the app's (this server's own pages)", async () => {
    const res = await send(cf.issueToken({ hostname: 'latchkey.test' }), 'http://latchkey.test')
    expect(res).toMatchObject(failed)
  })
})

describe('a server-to-server call (no Origin header)', () => {
  it("passes with any of the app's hostnames (such a caller could claim any Origin)", async () => {
    expect((await send(cf.issueToken({ hostname: 'shop.example' }), null)).status).toBe(200)
  })

  it('still fails without a hostname, or with a foreign one', async () => {
    expect(await send(cf.issueToken({ hostname: null }), null)).toMatchObject(failed)
    expect(await send(cf.issueToken({ hostname: 'evil.example' }), null)).toMatchObject(failed)
  })
})
