import { routes } from '@latchkey/protocol'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSKEY_INITS_PER_IP } from '../auth/passkey/schema.ts'
import { PASSKEY_APP_SETTINGS } from '../auth/passkey/testing.ts'
import { SIGN_IN_INITS_PER_IP } from '../auth/siwe/nonces.ts'
import { WALLET_APP_SETTINGS } from '../auth/siwe/testing.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'

// Tracker issue 15, item 3 follow-up: the login-start limits (passkey and
// wallet sign-in here; OAuth, Farcaster and Telegram use the same bucket)
// count an IPv6 client by its /64, as the code-verify and key-route limits
// do: a host holding a /64 cannot mint a fresh budget per address.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    trustProxy: true,
    appSettings: {
      login_methods: {
        ...PASSKEY_APP_SETTINGS.login_methods,
        ...WALLET_APP_SETTINGS.login_methods,
      },
    },
  })
})
afterAll(() => t.close())

/** A different address in the same /64 each call: `2001:db8:7:n::<i>`. */
const inPrefix = (n: number, i: number) => `2001:db8:7:${n.toString(16)}::${(i + 1).toString(16)}`

const routesUnderTest = [
  {
    name: 'passkey authenticate init',
    rule: PASSKEY_INITS_PER_IP,
    prefix: 1,
    call: (ip: string) =>
      t.request(routes.passkeyAuthenticateInit, {
        body: {},
        origin: TEST_ORIGIN,
        headers: { 'x-forwarded-for': ip },
      }),
  },
  {
    name: 'SIWE init',
    rule: SIGN_IN_INITS_PER_IP,
    prefix: 2,
    call: (ip: string) =>
      t.request(routes.siweInit, {
        body: { address: privateKeyToAccount(generatePrivateKey()).address.toLowerCase() },
        origin: TEST_ORIGIN,
        headers: { 'x-forwarded-for': ip },
      }),
  },
]

describe('login-start limits count an IPv6 client by its /64', () => {
  for (const route of routesUnderTest)
    it(`${route.name}: every address of one /64 shares one budget`, async () => {
      for (let i = 0; i < route.rule.limit; i++)
        expect((await route.call(inPrefix(route.prefix, i))).status).toBe(200)
      const over = await route.call(inPrefix(route.prefix, route.rule.limit + 1000))
      expect(over.status).toBe(429)
      expect(over.body.code).toBe('TOO_MANY_REQUESTS')
      // The neighbouring /64 is another client.
      expect((await route.call(inPrefix(route.prefix + 16, 0))).status).toBe(200)
    })
})
