import type { LatchkeyClient } from '@latchkey/core'
import { act, cleanup, render, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useLatchkeyInstance } from '../../context.ts'
import { useCaptcha } from '../../hooks/useCaptcha.ts'
import { useLoginWithEmail } from '../../hooks/useLoginWithEmail.ts'
import { LatchkeyProvider } from '../../LatchkeyProvider.tsx'
import { API_URL, APP_ID, createFakeServer } from '../../test/fake-server.ts'
import type { ScreenName } from '../screen.ts'
import { CaptchaGate } from './CaptchaGate.tsx'
import { useCaptchaScreen } from './scope.ts'

// Spec 01 §2, §4, §8: the invisible captcha runs only on the screens that need
// it and never for headless hooks; a token the server refuses resets it, so
// the next attempt carries a fresh one. The ALTCHA solver (altcha.test.ts
// covers it) is replaced by one that hands out t1, t2, … ; the clock is fake.

const h = vi.hoisted(() => ({ loads: 0, solved: 0 }))
vi.mock('./altcha.ts', () => ({
  createAltchaSolver: async () => {
    h.loads++
    return { solve: async () => `t${++h.solved}` }
  },
}))

let sends: Array<Record<string, unknown>>
let refuseNextSend: boolean

beforeEach(() => {
  vi.useFakeTimers()
  h.loads = 0
  h.solved = 0
  sends = []
  refuseNextSend = false
  const server = createFakeServer({ config: { captcha_enabled: true, captcha_provider: 'altcha' } })
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (new URL(String(input)).pathname === '/api/v1/passwordless/init') {
      sends.push(JSON.parse(String(init?.body)))
      if (refuseNextSend) {
        refuseNextSend = false
        return new Response(JSON.stringify({ code: 'CAPTCHA_INVALID', message: 'x' }), {
          status: 400,
          headers: { 'content-type': 'application/json' },
        })
      }
    }
    return server.fetch(input, init)
  })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

/** Lets pending promises settle and React commit, then `ms` pass on the fake clock. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

const wrapper = ({ children }: { children: ReactNode }) => (
  <LatchkeyProvider appId={APP_ID} apiUrl={API_URL}>
    {children}
  </LatchkeyProvider>
)

/** Renders `hook` once the app configuration (captcha enabled) is in. */
async function renderReady<T>(hook: () => T) {
  const rendered = renderHook(
    () => ({ value: hook(), config: useLatchkeyInstance().getUiState().appConfig }),
    { wrapper },
  )
  await elapse()
  await elapse()
  expect(rendered.result.current.config?.captcha_enabled).toBe(true)
  return rendered
}

describe('headless hooks', () => {
  it('run no captcha: no widget loads and the send carries no token', async () => {
    const { result } = await renderReady(() => useLoginWithEmail())
    // Not awaited before the clock moves: a captcha that ran would poll on it.
    const sending = result.current.value.sendCode({ email: 'a@example.com' })
    await elapse(5_000)
    await act(() => sending)
    expect(sends).toHaveLength(1)
    expect(sends[0]).not.toHaveProperty('token')
    expect(h.loads).toBe(0)
  })

  it('pass a token they solved themselves', async () => {
    const { result } = await renderReady(() => useLoginWithEmail())
    await act(() => result.current.value.sendCode({ email: 'a@example.com', captchaToken: 'own' }))
    expect(sends[0]?.token).toBe('own')
    expect(h.loads).toBe(0)
  })

  it('with useCaptcha mounted, solve 500 ms after mount and send its tokens', async () => {
    const { result } = await renderReady(() => ({
      captcha: useCaptcha(),
      email: useLoginWithEmail(),
    }))
    await elapse(499)
    expect(h.solved).toBe(0)
    await elapse(1)
    expect(result.current.value.captcha.state.status).toBe('success')
    await act(() => result.current.value.email.sendCode({ email: 'a@example.com' }))
    expect(sends[0]?.token).toBe('t1')
  })
})

describe('a token the server refuses (CAPTCHA_INVALID)', () => {
  it("reads 'Please try again.' and resets: the next send carries a token solved after the answer", async () => {
    const { result } = await renderReady(() => ({
      captcha: useCaptcha(),
      email: useLoginWithEmail(),
    }))
    await elapse(500)
    refuseNextSend = true
    await act(() => result.current.value.email.sendCode({ email: 'a@example.com' }))
    expect(result.current.value.email.state).toMatchObject({ status: 'error' })
    const { state } = result.current.value.email
    expect(state.status === 'error' && state.error.userMessage.title).toBe('Please try again.')
    await elapse()
    // t2 was solved ahead, before the refusal; the reset dropped it for t3.
    await act(() => result.current.value.email.sendCode({ email: 'a@example.com' }))
    expect(sends.map((s) => s.token)).toEqual(['t1', 't3'])
  })
})

/** A login-flow screen as far as the captcha is concerned. */
function Screen({ name }: { name: ScreenName }) {
  useCaptchaScreen(name)
  return <p>{name}</p>
}
let client: LatchkeyClient | null = null
function Harness({ name }: { name: ScreenName }) {
  const instance = useLatchkeyInstance()
  client = instance.client
  return (
    <CaptchaGate instance={instance} open>
      <Screen name={name} />
    </CaptchaGate>
  )
}

describe('in the modal, only the screens that need it', () => {
  it('the landing screen solves 500 ms after it shows', async () => {
    render(<Harness name="landing" />, { wrapper })
    await elapse()
    await elapse()
    await elapse(499)
    expect(h.solved).toBe(0)
    await elapse(1)
    expect(h.solved).toBe(1)
  })

  it('a screen that starts no login runs nothing ahead, and drops a token solved before', async () => {
    const view = render(<Harness name="landing" />, { wrapper })
    await elapse()
    await elapse()
    await elapse(500)
    expect(h.solved).toBe(1)
    view.rerender(<Harness name="success" />)
    await elapse(10_000)
    expect(h.solved).toBe(1)
    // A start made there anyway still gets a token, solved on demand (not t1).
    const pending = client?.captchaToken()
    await elapse(200)
    expect(await pending).toBe('t2')
  })
})
