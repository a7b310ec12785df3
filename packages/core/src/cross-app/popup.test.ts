import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type MessageTarget, openCrossAppPopup, waitForCrossAppMessage } from './popup.ts'

const PROVIDER = 'http://provider.test'

function fakes() {
  const listeners = new Set<(event: MessageEvent) => void>()
  const target: MessageTarget = {
    addEventListener: (_type, l) => listeners.add(l),
    removeEventListener: (_type, l) => listeners.delete(l),
  }
  const popup = {
    closed: false,
    close() {
      this.closed = true
    },
    location: { href: 'about:blank' },
  }
  const post = (data: unknown, origin = PROVIDER) => {
    for (const l of [...listeners]) l({ data, origin } as MessageEvent)
  }
  return { target, popup, post, listeners }
}

const code = (state: string) => ({
  type: 'latchkey:cross-app',
  result: 'code',
  code: 'c0de',
  state,
})

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('waitForCrossAppMessage', () => {
  it('resolves with the provider’s code for this state, and closes the popup', async () => {
    const f = fakes()
    const answer = waitForCrossAppMessage({ ...f, providerOrigin: PROVIDER, state: 's1' })
    f.post(code('s1'))
    await expect(answer).resolves.toMatchObject({ result: 'code', code: 'c0de' })
    expect(f.popup.closed).toBe(true)
    expect(f.listeners.size).toBe(0)
  })

  it('ignores messages from other origins and of other shapes', async () => {
    const f = fakes()
    const answer = waitForCrossAppMessage({ ...f, providerOrigin: PROVIDER, state: 's1' })
    f.post(code('s1'), 'http://attacker.test')
    f.post({ hello: 'world' })
    f.post(code('s1'))
    await expect(answer).resolves.toMatchObject({ code: 'c0de' })
  })

  it('a state other than the stored one is a phishing attempt', async () => {
    const f = fakes()
    const answer = waitForCrossAppMessage({ ...f, providerOrigin: PROVIDER, state: 's1' })
    f.post(code('other'))
    await expect(answer).rejects.toMatchObject({
      code: 'CROSS_APP_STATE_MISMATCH',
      message: expect.stringContaining('Unexpected auth flow. This may be a phishing attempt.'),
    })
  })

  it('a decline is ‘User rejected request’', async () => {
    const f = fakes()
    const answer = waitForCrossAppMessage({ ...f, providerOrigin: PROVIDER, state: 's1' })
    f.post({ type: 'latchkey:cross-app', result: 'rejected', state: 's1' })
    await expect(answer).rejects.toMatchObject({ code: 'CROSS_APP_REJECTED' })
  })

  it('a popup closed by the user is seen at the next 300 ms poll: ‘User canceled flow’', async () => {
    const f = fakes()
    const answer = waitForCrossAppMessage({ ...f, providerOrigin: PROVIDER, state: 's1' })
    const settled = vi.fn()
    answer.catch(settled)
    f.popup.closed = true
    await vi.advanceTimersByTimeAsync(299)
    expect(settled).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await expect(answer).rejects.toMatchObject({ code: 'CROSS_APP_CANCELED' })
  })

  it('times out after 2 minutes, and closes the popup', async () => {
    const f = fakes()
    const answer = waitForCrossAppMessage({ ...f, providerOrigin: PROVIDER, state: 's1' })
    const settled = vi.fn()
    answer.catch(settled)
    await vi.advanceTimersByTimeAsync(119_999)
    expect(settled).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await expect(answer).rejects.toMatchObject({
      code: 'CROSS_APP_TIMEOUT',
      message: expect.stringContaining('Cross-app authorization timed out after 2 minutes'),
    })
    expect(f.popup.closed).toBe(true)
  })

  it('an error from the provider page keeps its code', async () => {
    const f = fakes()
    const answer = waitForCrossAppMessage({ ...f, providerOrigin: PROVIDER, state: 's1' })
    f.post({
      type: 'latchkey:cross-app',
      result: 'error',
      state: 's1',
      code: 'CROSS_APP_READ_ONLY',
    })
    await expect(answer).rejects.toMatchObject({ code: 'CROSS_APP_READ_ONLY' })
  })
})

describe('openCrossAppPopup', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('opens a blank 440x680 popup (spec 03 §7, §9), centred on the window', () => {
    const open = vi.fn(() => ({ closed: false }))
    vi.stubGlobal('open', open)
    vi.stubGlobal('screenX', 100)
    vi.stubGlobal('screenY', 50)
    vi.stubGlobal('outerWidth', 1440)
    vi.stubGlobal('outerHeight', 900)
    expect(openCrossAppPopup()).toEqual({ closed: false })
    expect(open).toHaveBeenCalledWith(
      'about:blank',
      'latchkey-cross-app',
      'popup=yes,width=440,height=680,left=600,top=160',
    )
  })

  it('is null when the browser blocks it', () => {
    vi.stubGlobal(
      'open',
      vi.fn(() => null),
    )
    expect(openCrossAppPopup()).toBeNull()
  })
})
