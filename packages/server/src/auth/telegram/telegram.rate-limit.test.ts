import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { signLoginWidget, TEST_BOT_ID, TEST_BOT_NAME, TEST_BOT_TOKEN } from './testing.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    rateLimits: { telegramAuthPerIp: { limit: 3, windowMs: 60_000 } },
    appSettings: {
      login_methods: { telegram: true },
      telegram_auth_config: { bot_id: TEST_BOT_ID, bot_name: TEST_BOT_NAME },
    },
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'telegram',
    bot_token: TEST_BOT_TOKEN,
    bot_name: TEST_BOT_NAME,
  })
})
afterAll(() => t.close())

it("caps Telegram attempts per IP with the spec's message, then lets them through again", async () => {
  // A payload works once (telegram.payload-single-use.test.ts): each attempt signs a new one.
  let id = 1
  const attempt = () =>
    t.request(routes.telegramAuthenticate, {
      body: {
        telegram_auth_result: signLoginWidget({
          id: id++,
          auth_date: Math.floor(t.clock.now() / 1000),
        }),
      },
    })
  for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(200)
  expect(await attempt()).toMatchObject({
    status: 429,
    body: {
      code: 'TELEGRAM_RATE_LIMITED',
      message: 'Request limit reached for Telegram. Please wait a moment and try again.',
    },
  })
  t.clock.advance(60_001)
  expect((await attempt()).status).toBe(200)
})
