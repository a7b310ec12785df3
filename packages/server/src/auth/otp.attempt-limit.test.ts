import { CODE_MAX_ATTEMPTS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Security bar 5: wrong attempts are capped per code and per account, and the
// cap holds under a concurrent burst.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    rateLimits: { codeAttemptsPerIdentifier: { limit: 12, windowMs: 3_600_000 } },
  })
})
afterAll(() => t.close())

const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000')

describe('per-code attempt cap', () => {
  it(`allows ${CODE_MAX_ATTEMPTS} wrong attempts, then the code is dead even for the right value`, async () => {
    await t.request(routes.emailInit, { body: { email: 'cap@example.com' } })
    const code = await t.lastCode('cap@example.com')
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) {
      const res = await t.request(routes.emailAuthenticate, {
        body: { email: 'cap@example.com', code: wrongCode(code) },
      })
      expect(res).toMatchObject({ status: 422, body: { code: 'INVALID_CODE' } })
    }
    const right = await t.request(routes.emailAuthenticate, {
      body: { email: 'cap@example.com', code },
    })
    expect(right).toMatchObject({ status: 429, body: { code: 'TOO_MANY_ATTEMPTS' } })
  })

  it('holds under a concurrent burst of wrong guesses', async () => {
    await t.request(routes.emailInit, { body: { email: 'burst@example.com' } })
    const code = await t.lastCode('burst@example.com')
    const guesses = Array.from({ length: 25 }, (_, i) => String(i).padStart(6, '9')).filter(
      (g) => g !== code,
    )
    const results = await Promise.all(
      guesses
        .slice(0, 10)
        .map((g) =>
          t.request(routes.emailAuthenticate, { body: { email: 'burst@example.com', code: g } }),
        ),
    )
    const counted = results.filter((r) => r.body.code === 'INVALID_CODE').length
    expect(counted).toBe(CODE_MAX_ATTEMPTS)
    expect(results.filter((r) => r.body.code === 'TOO_MANY_ATTEMPTS')).toHaveLength(
      10 - CODE_MAX_ATTEMPTS,
    )
    const row = await t.db
      .selectFrom('otp_codes')
      .select('attempts')
      .where('identifier', '=', 'burst@example.com')
      .executeTakeFirstOrThrow()
    expect(row.attempts).toBe(CODE_MAX_ATTEMPTS)
    const right = await t.request(routes.emailAuthenticate, {
      body: { email: 'burst@example.com', code },
    })
    expect(right.body.code).toBe('TOO_MANY_ATTEMPTS')
  })

  it('a concurrent burst that includes the right code never yields more than one session', async () => {
    await t.request(routes.emailInit, { body: { email: 'mixed@example.com' } })
    const code = await t.lastCode('mixed@example.com')
    const bodies = [code, code, code, wrongCode(code), wrongCode(code), code]
    const results = await Promise.all(
      bodies.map((c) =>
        t.request(routes.emailAuthenticate, { body: { email: 'mixed@example.com', code: c } }),
      ),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  })
})

describe('per-address cap across codes', () => {
  it('refuses further attempts once an address has too many wrong codes, whatever code is current', async () => {
    const email = 'across@example.com'
    let failures = 0
    // Three codes, four wrong attempts each: 12 failures = the configured cap.
    for (let round = 0; round < 3; round++) {
      await t.request(routes.emailInit, { body: { email } })
      const code = await t.lastCode(email)
      for (let i = 0; i < 4; i++) {
        await t.request(routes.emailAuthenticate, { body: { email, code: wrongCode(code) } })
        failures++
      }
      t.clock.advance(31_000)
    }
    expect(failures).toBe(12)
    await t.request(routes.emailInit, { body: { email } })
    const fresh = await t.lastCode(email)
    const res = await t.request(routes.emailAuthenticate, { body: { email, code: fresh } })
    expect(res).toMatchObject({ status: 429, body: { code: 'TOO_MANY_ATTEMPTS' } })
  })
})

describe('per-address cap under a concurrent burst', () => {
  it('counts attempts atomically, so a burst cannot exceed the per-address cap', async () => {
    const small = await getTestInstance({
      rateLimits: { codeAttemptsPerIdentifier: { limit: 3, windowMs: 3_600_000 } },
    })
    try {
      const email = 'burst-across@example.com'
      await small.request(routes.emailInit, { body: { email } })
      const code = await small.lastCode(email)
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          small.request(routes.emailAuthenticate, { body: { email, code: wrongCode(code) } }),
        ),
      )
      expect(results.filter((r) => r.body.code === 'INVALID_CODE')).toHaveLength(3)
      expect(results.filter((r) => r.body.code === 'TOO_MANY_ATTEMPTS')).toHaveLength(7)
      const right = await small.request(routes.emailAuthenticate, { body: { email, code } })
      expect(right.body.code).toBe('TOO_MANY_ATTEMPTS')
    } finally {
      await small.close()
    }
  })
})
