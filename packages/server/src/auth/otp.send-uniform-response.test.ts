import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Security bar 6: send-code answers the same for known and unknown identifiers.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

// Each answer's own date and request id differ by design; every other header must not.
const strip = (headers: Headers) => {
  const out: Record<string, string> = {}
  headers.forEach((v, k) => {
    if (k !== 'date' && k !== 'x-request-id') out[k] = v
  })
  return out
}

it('same status, body and headers for a known and an unknown address, with and without disableSignup', async () => {
  await t.login('known@example.com')
  const answers = []
  for (const disableSignup of [undefined, true, false]) {
    for (const email of ['known@example.com', `unknown-${String(disableSignup)}@example.com`]) {
      const res = await t.request(routes.emailInit, {
        body: { email, ...(disableSignup === undefined ? {} : { disableSignup }) },
      })
      answers.push({ status: res.status, body: res.body, headers: strip(res.headers) })
      t.clock.advance(31_000)
    }
  }
  for (const a of answers) expect(a).toEqual(answers[0])
  expect(answers[0]).toMatchObject({ status: 200, body: { success: true } })
})

it('sends a code to unknown addresses too (same work, same timing class)', async () => {
  await t.request(routes.emailInit, { body: { email: 'ghost@example.com', disableSignup: true } })
  expect(await t.lastCode('ghost@example.com')).toMatch(/^\d{6}$/)
})
