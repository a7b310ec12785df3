import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type CaptchaSolver, createCaptchaController } from './captcha.ts'
import { LatchkeyError } from './errors.ts'

// Spec 01 §4, §9: auto-execute after 500 ms, poll every 200 ms up to 20 s,
// 3 retries starting at 1 s, one token per call, reset on expiry and close.
beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

function solver(results: Array<string | LatchkeyError | 'hang'>) {
  const calls: number[] = []
  const s: CaptchaSolver = {
    solve: () => {
      calls.push(Date.now())
      const next = results.shift() ?? 'hang'
      if (next === 'hang') return new Promise(() => {})
      return next instanceof LatchkeyError ? Promise.reject(next) : Promise.resolve(next)
    },
  }
  return { load: () => Promise.resolve(s), calls }
}

it('is disabled without a solver, and gives no token', async () => {
  const c = createCaptchaController(null)
  expect(c.getState().status).toBe('disabled')
  expect(await c.token()).toBeUndefined()
})

it('auto-executes 500 ms after being scheduled, not before', async () => {
  const s = solver(['t1'])
  const c = createCaptchaController(s.load)
  c.scheduleExecute()
  await vi.advanceTimersByTimeAsync(499)
  expect(c.getState().status).toBe('ready')
  await vi.advanceTimersByTimeAsync(1)
  expect(s.calls).toHaveLength(1)
  expect(c.getState().status).toBe('success')
})

it('hands each token out once; the next call solves again', async () => {
  const s = solver(['t1', 't2'])
  const c = createCaptchaController(s.load)
  c.execute()
  await vi.advanceTimersByTimeAsync(0)
  expect(await c.token()).toBe('t1')
  const next = c.token()
  await vi.advanceTimersByTimeAsync(200)
  expect(await next).toBe('t2')
  expect(s.calls).toHaveLength(2)
})

it('a waiting call polls every 200 ms and marks itself waiting', async () => {
  let release: (token: string) => void = () => {}
  const c = createCaptchaController(async () => ({
    solve: () => new Promise<string>((resolve) => (release = resolve)),
  }))
  const pending = c.token()
  await vi.advanceTimersByTimeAsync(0)
  expect(c.getState()).toMatchObject({ status: 'loading', waiting: true })
  release('late')
  await vi.advanceTimersByTimeAsync(199)
  expect(c.getState().waiting).toBe(true)
  await vi.advanceTimersByTimeAsync(1)
  expect(await pending).toBe('late')
  expect(c.getState().waiting).toBe(false)
})

it('gives up after 20 s with CAPTCHA_TIMEOUT', async () => {
  const c = createCaptchaController(solver(['hang']).load)
  const pending = c.token()
  const caught = pending.catch((e: LatchkeyError) => e.code)
  await vi.advanceTimersByTimeAsync(19_800)
  expect(c.getState().waiting).toBe(true)
  await vi.advanceTimersByTimeAsync(200)
  expect(await caught).toBe('CAPTCHA_TIMEOUT')
})

describe('retries', () => {
  it('retries 3 times after 1 s, 2 s and 4 s, then errors (exhausted)', async () => {
    const fail = () => new LatchkeyError('CAPTCHA_FAILED')
    const s = solver([fail(), fail(), fail(), fail()])
    const c = createCaptchaController(s.load)
    const start = Date.now()
    c.execute()
    await vi.advanceTimersByTimeAsync(7_000)
    expect(s.calls.map((t) => t - start)).toEqual([0, 1_000, 3_000, 7_000])
    expect(c.getState()).toMatchObject({
      status: 'error',
      error: 'CAPTCHA_FAILED',
      exhausted: true,
    })
  })

  it('a retry that succeeds ends in success', async () => {
    const s = solver([new LatchkeyError('CAPTCHA_FAILED'), 'ok'])
    const c = createCaptchaController(s.load)
    c.execute()
    await vi.advanceTimersByTimeAsync(1_000)
    expect(c.getState().status).toBe('success')
  })

  it('an invalid site key is not retried', async () => {
    const s = solver([new LatchkeyError('CAPTCHA_INVALID_SITE_KEY')])
    const c = createCaptchaController(s.load)
    const caught = c.token().catch((e: LatchkeyError) => e.code)
    await vi.advanceTimersByTimeAsync(200)
    expect(await caught).toBe('CAPTCHA_INVALID_SITE_KEY')
    expect(s.calls).toHaveLength(1)
  })
})

it('reset (modal closed) drops the token; expiry solves again when the modal is open', async () => {
  const s = solver(['t1', 't2'])
  const c = createCaptchaController(s.load)
  c.execute()
  await vi.advanceTimersByTimeAsync(0)
  c.reset()
  expect(c.getState().status).toBe('ready')
  c.setPrefetch(true)
  c.execute()
  await vi.advanceTimersByTimeAsync(0)
  c.expire()
  await vi.advanceTimersByTimeAsync(0)
  expect(s.calls).toHaveLength(3)
})
