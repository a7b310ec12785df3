import { LatchkeyError, type User } from '@latchkey/core'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import DelegatedActionsScreen from './DelegatedActionsScreen.tsx'
import type { DelegatedActionsRequest } from './request.ts'

// The delegation consent and revoke screens (spec 03 §2, §4, §9) with fake
// timers: the spec's titles and buttons, a spinner while working, 'Success!'
// or 'Something went wrong. Please try again.', and the modal closing 2.5 s later.

const ADDRESS = '0x1111111111111111111111111111111111111111'
const USER = { id: 'did:latchkey:user1' } as User

const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))
const heading = () => screen.getByRole('heading').textContent
const click = (name: string) => act(async () => screen.getByRole('button', { name }).click())

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

function renderScreen(request: DelegatedActionsRequest) {
  const props = { onDone: vi.fn(), onFailed: vi.fn(), onClose: vi.fn() }
  render(<DelegatedActionsScreen request={request} {...props} />)
  return props
}

const consent = (onDelegate: () => Promise<User>): DelegatedActionsRequest => ({
  screen: 'delegate-wallet',
  address: ADDRESS,
  chainType: 'ethereum',
  appName: 'Demo App',
  onDelegate,
})
const revoke = (onRevoke: () => Promise<User>): DelegatedActionsRequest => ({
  screen: 'revoke-wallets',
  appName: null,
  onRevoke,
})

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

describe('consent', () => {
  it("'Enable offline access' with the wallet, 'Accept' and 'Not now'", () => {
    renderScreen(consent(async () => USER))
    expect(heading()).toBe('Enable offline access')
    expect(screen.getByText(/Demo App will be able to use your wallet/)).toBeTruthy()
    expect(screen.getByTestId('lk-delegate-wallet').textContent).toContain('Ethereum wallet')
    expect(screen.getByTitle(ADDRESS).textContent).toBe('0x1111…1111')
    const actions = document.querySelectorAll('.lk-actions button')
    expect(Array.from(actions, (b) => b.textContent)).toEqual(['Accept', 'Not now'])
  })

  it("Accept: buttons disabled while working, then 'Success!', and the modal closes 2.5 s later", async () => {
    const work = deferred<User>()
    const onDelegate = vi.fn(() => work.promise)
    const props = renderScreen(consent(onDelegate))
    await click('Accept')
    expect(onDelegate).toHaveBeenCalledTimes(1)
    const accept = screen.getByRole('button', { name: 'Accept' }) as HTMLButtonElement
    expect(accept.disabled).toBe(true)
    expect(accept.getAttribute('aria-busy')).toBe('true')
    expect((screen.getByRole('button', { name: 'Not now' }) as HTMLButtonElement).disabled).toBe(
      true,
    )
    await act(async () => work.resolve(USER))
    expect(heading()).toBe('Success!')
    expect(screen.getByRole('status').textContent).toBe('Success!')
    expect(props.onDone).toHaveBeenCalledWith(USER)
    await elapse(2_499)
    expect(props.onClose).not.toHaveBeenCalled()
    await elapse(1)
    expect(props.onClose).toHaveBeenCalledTimes(1)
  })

  it("a failure: 'Something went wrong. Please try again.', the error handed on, closed 2.5 s later", async () => {
    const failure = new LatchkeyError('DELEGATION_SHARE_INVALID')
    const props = renderScreen(consent(async () => Promise.reject(failure)))
    await click('Accept')
    expect(heading()).toBe('Something went wrong. Please try again.')
    expect(screen.getByRole('alert').textContent).toBe('Something went wrong. Please try again.')
    expect(props.onFailed).toHaveBeenCalledWith(failure)
    expect(props.onDone).not.toHaveBeenCalled()
    await elapse(2_499)
    expect(props.onClose).not.toHaveBeenCalled()
    await elapse(1)
    expect(props.onClose).toHaveBeenCalledTimes(1)
  })

  it("'Not now' closes at once and runs nothing", async () => {
    const onDelegate = vi.fn(async () => USER)
    const props = renderScreen(consent(onDelegate))
    await click('Not now')
    expect(props.onClose).toHaveBeenCalledTimes(1)
    expect(onDelegate).not.toHaveBeenCalled()
  })
})

describe('revoke', () => {
  it("'Revoke offline access to wallet' with 'Confirm' and 'Deny'; Confirm succeeds and closes after 2.5 s", async () => {
    const onRevoke = vi.fn(async () => USER)
    const props = renderScreen(revoke(onRevoke))
    expect(heading()).toBe('Revoke offline access to wallet')
    expect(screen.getByText(/This app will no longer be able to use your wallet/)).toBeTruthy()
    expect(screen.queryByTestId('lk-delegate-wallet')).toBeNull()
    await click('Confirm')
    expect(onRevoke).toHaveBeenCalledTimes(1)
    expect(heading()).toBe('Success!')
    expect(props.onDone).toHaveBeenCalledWith(USER)
    await elapse(2_500)
    expect(props.onClose).toHaveBeenCalledTimes(1)
  })

  it("'Deny' closes at once and revokes nothing", async () => {
    const onRevoke = vi.fn(async () => USER)
    const props = renderScreen(revoke(onRevoke))
    await click('Deny')
    expect(props.onClose).toHaveBeenCalledTimes(1)
    expect(onRevoke).not.toHaveBeenCalled()
  })

  it("a failure shows 'Something went wrong. Please try again.'", async () => {
    const props = renderScreen(revoke(async () => Promise.reject(new Error('offline'))))
    await click('Confirm')
    expect(heading()).toBe('Something went wrong. Please try again.')
    expect(props.onFailed).toHaveBeenCalledWith(expect.any(LatchkeyError))
  })
})
