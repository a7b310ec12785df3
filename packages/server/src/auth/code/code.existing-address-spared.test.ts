import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { insertAccount } from '../../users/service.ts'

// The code channels' `AddressUse` (code/service.ts): an app's address rules
// (disable_plus_emails, smsAllowedRegions) apply to an address a code goes to
// or an account is made for, never to one the user already has, so a rule
// turned on later cannot strand an address: it can still be unlinked or
// replaced.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    appSettings: { login_methods: { sms: true }, disable_plus_emails: true },
    smsAllowedRegions: ['US'],
  })
})
afterAll(() => t.close())

/** A user of `email` who also has `account` (made before the app's rule). */
async function userWith(email: string, account: { type: string; identifier: string }) {
  const user = await t.login(email)
  const data =
    account.type === 'phone' ? { number: account.identifier } : { address: account.identifier }
  await insertAccount(t.db, t.app.id, user.user.id, { ...account, data }, t.clock.now())
  return user.token ?? ''
}

async function lastSmsCode(phone: string): Promise<string> {
  const res = await t.request(`${routes.devOutbox}?to=${encodeURIComponent(phone)}`, {
    appId: null,
  })
  return res.body.messages?.[0]?.code ?? ''
}

/** Each rule with an address the user already has (`n` keeps the tests' addresses apart). */
const rules = (n: number) =>
  [
    {
      rule: 'disable_plus_emails',
      existing: { type: 'email', identifier: `plain+${n}@example.com` },
      refusal: { status: 400, body: { code: 'PLUS_EMAIL_NOT_ALLOWED' } },
      toNew: (code: string) => ({
        path: routes.emailUpdate,
        body: { oldAddress: `plain+${n}@example.com`, newAddress: 'x+new@example.com', code },
      }),
      toAllowed: (code: string) => ({
        path: routes.emailUpdate,
        body: { oldAddress: `plain+${n}@example.com`, newAddress: 'fresh@example.com', code },
      }),
      sendToAllowed: async () => {
        await t.request(routes.emailInit, { body: { email: 'fresh@example.com' } })
        return t.lastCode('fresh@example.com')
      },
      unlink: { path: routes.emailUnlink, body: { address: `plain+${n}@example.com` } },
    },
    {
      rule: 'smsAllowedRegions',
      existing: { type: 'phone', identifier: `+3361234567${n}` },
      refusal: { status: 403, body: { code: 'SMS_REGION_NOT_ALLOWED' } },
      toNew: (code: string) => ({
        path: routes.smsUpdate,
        body: { old_phone_number: `+3361234567${n}`, new_phone_number: '+33612345679', code },
      }),
      toAllowed: (code: string) => ({
        path: routes.smsUpdate,
        body: { old_phone_number: `+3361234567${n}`, new_phone_number: '+14155552671', code },
      }),
      sendToAllowed: async () => {
        await t.request(routes.smsInit, { body: { phoneNumber: '+14155552671' } })
        return lastSmsCode('+14155552671')
      },
      unlink: { path: routes.smsUnlink, body: { phoneNumber: `+3361234567${n}` } },
    },
  ] as const

it.each(rules(0))(
  '$rule: a new address is refused; one the user has can be unlinked',
  async (r) => {
    const token = await userWith(`unlink-${r.existing.type}@example.com`, r.existing)
    const update = r.toNew('000000')
    expect(await t.request(update.path, { token, body: update.body })).toMatchObject(r.refusal)
    expect((await t.request(r.unlink.path, { token, body: r.unlink.body })).status).toBe(200)
  },
)

it.each(rules(1))('$rule: an address the user has can be replaced by an allowed one', async (r) => {
  const token = await userWith(`update-${r.existing.type}@example.com`, r.existing)
  const update = r.toAllowed(await r.sendToAllowed())
  expect((await t.request(update.path, { token, body: update.body })).status).toBe(200)
})
