// @vitest-environment node
import type { CaptchaSolver } from '@latchkey/core'
import { routes } from '@latchkey/protocol/routes'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '@latchkey/server/test'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  ALTCHA_CHALLENGE_TTL_MS,
  createAltchaChallenge,
  verifyAltchaToken,
} from '../../../../server/src/captcha/altcha.ts'
import { createAltchaSolver } from './altcha.ts'
import { type AltchaChallenge, solveAltchaChallenge } from './altcha-solve.ts'

// The headless ALTCHA solver against the real Latchkey server in process
// (docs/captcha.md): its challenge route, altcha-lib's signatures and the
// server's payload check. WebCrypto is Node's own; only the network between
// the solver and the server is a function call.

let t: TestInstance
let email = 0
const API_URL = 'http://latchkey.test'
const decode = (token: string) => JSON.parse(Buffer.from(token, 'base64').toString('utf8'))
const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64')
const verify = (token: string) =>
  verifyAltchaToken({ services: t.server.services, app: t.app, token })
const sendCode = (token: string) =>
  t.request(routes.emailInit, {
    body: { email: `solver${++email}@example.com`, token },
    origin: TEST_ORIGIN,
  })

/** Challenge requests as the server got them. */
let requests: Array<{ url: URL; init: RequestInit | undefined }>
/** Rewrites each challenge the server serves before the solver sees it (tests that need an unsolvable one). */
let alter: ((challenge: AltchaChallenge) => void) | null

beforeAll(async () => {
  t = await getTestInstance({ appSettings: { captcha_enabled: true } })
})
afterAll(() => t.close())

function routeFetchToServer() {
  requests = []
  alter = null
  vi.stubGlobal('fetch', async (input: URL, init?: RequestInit) => {
    const url = new URL(String(input))
    requests.push({ url, init })
    expect(url.origin).toBe(API_URL)
    // The browser adds Origin to a cross-origin GET; the server checks it.
    const res = await t.server.app.request(url.pathname + url.search, {
      headers: { origin: TEST_ORIGIN },
    })
    if (!alter || !res.ok) return res
    const challenge = (await res.json()) as AltchaChallenge
    alter(challenge)
    return Response.json(challenge)
  })
}
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

/** Counts WebCrypto derivations (they still run for real) and tells when the first starts. */
function watchDerivations() {
  const { subtle } = globalThis.crypto
  const deriveBits = subtle.deriveBits.bind(subtle)
  let started = () => {}
  const searching = new Promise<void>((resolve) => {
    started = resolve
  })
  const spy = vi.spyOn(subtle, 'deriveBits').mockImplementation((...args) => {
    started()
    return deriveBits(...args)
  })
  return { searching, count: () => spy.mock.calls.length }
}

const neverMatches = (challenge: AltchaChallenge) => {
  // 16 bytes of 0xff: one key in 2^128.
  challenge.parameters.keyPrefix = 'f'.repeat(32)
}

async function newSolver(onExpire = vi.fn()): Promise<CaptchaSolver> {
  return createAltchaSolver({ apiUrl: API_URL, appId: t.app.id, onExpire })
}

describe('a challenge the server made', () => {
  it('createAltchaChallenge → solveAltchaChallenge → verifyAltchaToken passes', async () => {
    const challenge = await createAltchaChallenge(t.server.services, t.app)
    const token = await solveAltchaChallenge(
      challenge as AltchaChallenge,
      new AbortController().signal,
    )
    await expect(verify(token)).resolves.toEqual({
      replayKey: `altcha:${challenge.parameters.nonce}`,
      expiresAt: (challenge.parameters.expiresAt ?? 0) * 1000,
    })
    // The lowest counter that fits, from the server's range (500–2500), and the whole key.
    const { solution } = decode(token)
    expect(solution.counter).toBeGreaterThanOrEqual(500)
    expect(solution.counter).toBeLessThanOrEqual(2_500)
    expect(solution.derivedKey).toMatch(/^[0-9a-f]{64}$/)
    expect(solution.derivedKey.startsWith(challenge.parameters.keyPrefix)).toBe(true)
  })

  it('each solve fetches a fresh challenge with a plain GET, and the send-code call takes the token', async () => {
    routeFetchToServer()
    const solver = await newSolver()
    const first = await solver.solve(new AbortController().signal)
    const second = await solver.solve(new AbortController().signal)
    expect(requests).toHaveLength(2)
    for (const { url, init } of requests) {
      expect(url.pathname).toBe(routes.captchaAltchaChallenge)
      expect(url.searchParams.get('app_id')).toBe(t.app.id)
      // No method, body or custom header: a simple request, no CORS preflight.
      expect(init?.method).toBeUndefined()
      expect(init?.headers).toBeUndefined()
    }
    const nonce = (token: string) => decode(token).challenge.parameters.nonce
    expect(nonce(first)).not.toBe(nonce(second))
    expect(decode(first).challenge.parameters.data).toEqual({ app_id: t.app.id })
    expect((await sendCode(first)).status).toBe(200)
    expect((await sendCode(second)).status).toBe(200)
    // Spent once, refused after (single use is the server's).
    expect((await sendCode(first)).body).toMatchObject({ code: 'CAPTCHA_INVALID' })
    solver.dispose?.()
  })
})

describe('a forged or mutated solution is refused by the server', () => {
  let token: string
  beforeAll(async () => {
    const challenge = await createAltchaChallenge(t.server.services, t.app)
    token = await solveAltchaChallenge(challenge as AltchaChallenge, new AbortController().signal)
  })

  it('a changed counter and key', async () => {
    const payload = decode(token)
    payload.solution.counter += 1
    const last = payload.solution.derivedKey.slice(-1)
    payload.solution.derivedKey =
      payload.solution.derivedKey.slice(0, -1) + (last === '0' ? '1' : '0')
    await expect(verify(encode(payload))).rejects.toMatchObject({ code: 'CAPTCHA_FAILED' })
  })

  it('a key that only has the right prefix', async () => {
    const payload = decode(token)
    const { keyPrefix } = payload.challenge.parameters
    payload.solution.derivedKey = keyPrefix + '0'.repeat(64 - keyPrefix.length)
    await expect(verify(encode(payload))).rejects.toMatchObject({ code: 'CAPTCHA_FAILED' })
  })

  it('an easier challenge solved instead of the signed one', async () => {
    const challenge = await createAltchaChallenge(t.server.services, t.app)
    challenge.parameters.keyPrefix = challenge.parameters.keyPrefix.slice(0, 1)
    const easier = await solveAltchaChallenge(
      challenge as AltchaChallenge,
      new AbortController().signal,
    )
    await expect(verify(easier)).rejects.toMatchObject({ code: 'CAPTCHA_FAILED' })
  })

  it('the untouched token passes', async () => {
    await expect(verify(token)).resolves.toMatchObject({ replayKey: expect.any(String) })
  })
})

describe('abort', () => {
  it('stops the search: no derivation starts after it, and solve rejects with CAPTCHA_FAILED', async () => {
    routeFetchToServer()
    alter = neverMatches
    const derivations = watchDerivations()
    const solver = await newSolver()
    const run = new AbortController()
    const solving = solver.solve(run.signal)
    await derivations.searching
    run.abort()
    const atAbort = derivations.count()
    await expect(solving).rejects.toMatchObject({ code: 'CAPTCHA_FAILED' })
    expect(derivations.count()).toBe(atAbort)
  })

  it('before the challenge arrives: nothing is derived', async () => {
    routeFetchToServer()
    const derivations = watchDerivations()
    const solver = await newSolver()
    const run = new AbortController()
    const solving = solver.solve(run.signal)
    run.abort()
    await expect(solving).rejects.toMatchObject({ code: 'CAPTCHA_FAILED' })
    expect(derivations.count()).toBe(0)
  })
})

describe('expiry (fake clock)', () => {
  const fakeClock = (offsetMs = 0) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    vi.setSystemTime(t.clock.now() + offsetMs)
  }

  it('onExpire runs when the solved challenge reaches expiresAt', async () => {
    routeFetchToServer()
    fakeClock()
    const onExpire = vi.fn()
    const solver = await newSolver(onExpire)
    const token = await solver.solve(new AbortController().signal)
    expect(decode(token).challenge.parameters.expiresAt * 1000).toBe(
      t.clock.now() + ALTCHA_CHALLENGE_TTL_MS,
    )
    vi.advanceTimersByTime(ALTCHA_CHALLENGE_TTL_MS - 1)
    expect(onExpire).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onExpire).toHaveBeenCalledOnce()
  })

  it('a challenge still unsolved at its expiry ends its search with CAPTCHA_FAILED', async () => {
    routeFetchToServer()
    alter = neverMatches
    fakeClock()
    const derivations = watchDerivations()
    const onExpire = vi.fn()
    const solver = await newSolver(onExpire)
    const solving = solver.solve(new AbortController().signal)
    await derivations.searching
    vi.advanceTimersByTime(ALTCHA_CHALLENGE_TTL_MS)
    expect(onExpire).toHaveBeenCalledOnce()
    await expect(solving).rejects.toMatchObject({ code: 'CAPTCHA_FAILED' })
  })

  it('a new solve, an abort or dispose() cancels the pending expiry', async () => {
    routeFetchToServer()
    fakeClock()
    const onExpire = vi.fn()
    const solver = await newSolver(onExpire)
    await solver.solve(new AbortController().signal)
    vi.advanceTimersByTime(ALTCHA_CHALLENGE_TTL_MS / 2)
    t.clock.advance(ALTCHA_CHALLENGE_TTL_MS / 2)
    // The second challenge's timer replaces the first's.
    const run = new AbortController()
    await solver.solve(run.signal)
    vi.advanceTimersByTime(ALTCHA_CHALLENGE_TTL_MS - 1)
    expect(onExpire).not.toHaveBeenCalled()
    // The caller dropped that run's token (the modal closed): nothing left to expire.
    run.abort()
    vi.advanceTimersByTime(ALTCHA_CHALLENGE_TTL_MS)
    expect(onExpire).not.toHaveBeenCalled()
    await solver.solve(new AbortController().signal)
    solver.dispose?.()
    vi.advanceTimersByTime(ALTCHA_CHALLENGE_TTL_MS)
    expect(onExpire).not.toHaveBeenCalled()
  })

  it('a failed solve leaves nothing to expire', async () => {
    routeFetchToServer()
    alter = (challenge) => {
      challenge.parameters.algorithm = 'ARGON2ID'
    }
    fakeClock()
    const onExpire = vi.fn()
    const solver = await newSolver(onExpire)
    await expect(solver.solve(new AbortController().signal)).rejects.toMatchObject({
      code: 'CAPTCHA_FAILED',
    })
    vi.advanceTimersByTime(ALTCHA_CHALLENGE_TTL_MS)
    expect(onExpire).not.toHaveBeenCalled()
  })

  it.each([
    ['fast', 10 * 60_000],
    ['slow', -60 * 60_000],
  ])('a local clock running %s counts the server’s 5 minutes from the fetch', async (_, offset) => {
    routeFetchToServer()
    fakeClock(offset)
    const onExpire = vi.fn()
    const solver = await newSolver(onExpire)
    await solver.solve(new AbortController().signal)
    vi.advanceTimersByTime(ALTCHA_CHALLENGE_TTL_MS - 1)
    expect(onExpire).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onExpire).toHaveBeenCalledOnce()
  })
})

describe('challenges it cannot solve', () => {
  it.each([
    ['a server error', null, 'x'],
    ['another algorithm', 'algorithm', 'SHA-256'],
    ['a nonce that is not hex', 'nonce', 'zz'],
    ['a prefix longer than the key', 'keyPrefix', 'a'.repeat(66)],
  ])('%s: CAPTCHA_FAILED without a search', async (_, field, value) => {
    routeFetchToServer()
    const derivations = watchDerivations()
    // A server error: the challenge of an app id the server does not know.
    const solver =
      field === null
        ? await createAltchaSolver({ apiUrl: API_URL, appId: 'app_unknown', onExpire: vi.fn() })
        : await newSolver()
    if (field) alter = (challenge) => Object.assign(challenge.parameters, { [field]: value })
    await expect(solver.solve(new AbortController().signal)).rejects.toMatchObject({
      code: 'CAPTCHA_FAILED',
    })
    expect(derivations.count()).toBe(0)
  })
})
