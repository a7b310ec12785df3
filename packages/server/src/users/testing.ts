import { routes } from '@latchkey/protocol'
import type { AppSettings } from '../apps/service.ts'
import type { TestInstance, TestResponse } from '../test/instance.ts'

/*
 * Helpers of the access-control tests (users/*.test.ts): log in through the
 * real routes and change an app's settings under a running server.
 */

/** Replaces an app's stored settings and drops it from the app cache. */
export async function setAppSettings(
  t: TestInstance,
  appId: string,
  settings: AppSettings,
): Promise<void> {
  await t.db
    .updateTable('apps')
    .set({ settings: JSON.stringify(settings) })
    .where('id', '=', appId)
    .execute()
  t.server.services.apps.invalidate(appId)
}

/** Email init + authenticate without throwing: the authenticate response. */
export async function emailLogin(
  t: TestInstance,
  email: string,
  options: { appId?: string } = {},
): Promise<TestResponse> {
  await t.request(routes.emailInit, { body: { email }, ...options })
  const code = await t.lastCode(email)
  const res = await t.request(routes.emailAuthenticate, { body: { email, code }, ...options })
  t.clock.advance(31_000)
  return res
}

/** The latest code the dev outbox got for `phone` (E.164). */
export async function lastSmsCode(t: TestInstance, phone: string): Promise<string> {
  const res = await t.request(`${routes.devOutbox}?to=${encodeURIComponent(phone)}`, {
    appId: null,
  })
  const code = res.body.messages?.[0]?.code
  if (!code) throw new Error(`No code was sent to ${phone}`)
  return code
}

/** SMS init + authenticate without throwing: the authenticate response. */
export async function smsLogin(
  t: TestInstance,
  phone: string,
  options: { appId?: string } = {},
): Promise<TestResponse> {
  const init = await t.request(routes.smsInit, { body: { phoneNumber: phone }, ...options })
  if (init.status !== 200) return init
  const code = await lastSmsCode(t, phone)
  const res = await t.request(routes.smsAuthenticate, {
    body: { phoneNumber: phone, code },
    ...options,
  })
  t.clock.advance(31_000)
  return res
}

/** Email init + link for the signed-in user: the link response. */
export async function emailLink(
  t: TestInstance,
  token: string,
  email: string,
): Promise<TestResponse> {
  await t.request(routes.emailInit, { body: { email } })
  const code = await t.lastCode(email)
  const res = await t.request(routes.emailLink, { token, body: { email, code } })
  t.clock.advance(31_000)
  return res
}

/** SMS init + link for the signed-in user: the link response. */
export async function smsLink(
  t: TestInstance,
  token: string,
  phone: string,
): Promise<TestResponse> {
  await t.request(routes.smsInit, { body: { phoneNumber: phone } })
  const code = await lastSmsCode(t, phone)
  const res = await t.request(routes.smsLink, { token, body: { phoneNumber: phone, code } })
  t.clock.advance(31_000)
  return res
}
