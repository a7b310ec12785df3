import { LatchkeyError } from '@latchkey/core'
import {
  MODAL_OPEN_DELAY_MS,
  MODAL_RESET_DELAY_MS,
  WRONG_CODE_CLEAR_DELAY_MS,
} from '@latchkey/protocol/constants'
import { act, cleanup, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { useMfa } from './hooks/useMfa.ts'
import { useSignMessage } from './hooks/useSignMessage.ts'
import { answerMfaChallenges } from './mfa-prompt.ts'
import { enterCode } from './test/mfa.ts'
import { renderWithWallets } from './test/wallet.tsx'

beforeAll(() => import('./modal/chunk.ts'))
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

/** Under fake timers: lets pending promises settle and React commit, then `ms` pass. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

const mfaRequired = () =>
  new LatchkeyError('MFA_REQUIRED', undefined, {
    details: { code: 'MFA_REQUIRED', message: 'MFA', details: { mfa_methods: ['totp'] } },
  })

type Hooks = {
  signMessage: ReturnType<typeof useSignMessage>['signMessage']
  mfa: ReturnType<typeof useMfa>
}
function Probe({ hooks }: { hooks: Hooks }) {
  hooks.signMessage = useSignMessage().signMessage
  hooks.mfa = useMfa()
  return null
}

/** A wallet whose enclave wants MFA until a right code ('123456') was verified. */
function setup(hostConfig = {}) {
  let verified = false
  const hooks = {} as Hooks
  const rendered = renderWithWallets(<Probe hooks={hooks} />, {
    enclave: (event, data) => {
      if (event === 'latchkey:mfa:verify') {
        const { code } = data.request as { code: string }
        if (code !== '123456') throw new LatchkeyError('MFA_INVALID_CODE')
        verified = true
        return { method: 'totp', verified_at: 1, expires_at: 901 }
      }
      if (event === 'latchkey:wallets:rpc' && !verified) throw mfaRequired()
      return undefined
    },
  })
  rendered.instance.setHostConfig(hostConfig)
  const stop = answerMfaChallenges(rendered.instance)
  return { hooks, stop, ...rendered }
}

const sign = (hooks: Hooks) =>
  hooks.signMessage({ message: 'hello' }, { uiOptions: { showWalletUIs: false } }).then(
    (value) => ({ value }),
    (error: LatchkeyError) => ({ error }),
  )

describe('a wallet action that needs MFA', () => {
  it('opens the verification over the page, and goes on once the code is right', async () => {
    vi.useFakeTimers()
    const { hooks, rpc } = setup()
    const result = sign(hooks)
    await elapse(MODAL_OPEN_DELAY_MS)
    expect(screen.getByRole('heading', { name: 'Enter verification code' })).toBeTruthy()
    act(() => enterCode('000000'))
    await elapse()
    expect(screen.getByText('The code you entered is not valid')).toBeTruthy()
    // The boxes clear, then take the next code.
    await elapse(WRONG_CODE_CLEAR_DELAY_MS)
    act(() => enterCode('123456'))
    await elapse()
    expect(await result).toEqual({ value: { signature: '0xsignature' } })
    expect(rpc).toHaveBeenCalledTimes(1)
    await elapse(MODAL_RESET_DELAY_MS)
    expect(screen.queryByRole('heading')).toBeNull()
  })

  it("rejects with MFA_CANCELED ('Verification canceled') when the user closes it", async () => {
    const { hooks } = setup()
    const result = sign(hooks)
    await screen.findByRole('heading', { name: 'Enter verification code' })
    act(() => screen.getByRole('button', { name: 'Cancel' }).click())
    const { error } = (await result) as { error: LatchkeyError }
    expect(error.code).toBe('MFA_CANCELED')
    // Spec 02 §8: the internal message is 'MFA canceled'; the user's words stay the catalogue's.
    expect(error.message).toBe('MFA canceled')
    expect(error.userMessageLine).toBe('Verification canceled')
  })

  it('leaves the drawing to the app with noPromptOnMfaRequired: useMfa sees and answers it', async () => {
    const { hooks, instance } = setup({ mfa: { noPromptOnMfaRequired: true } })
    const result = sign(hooks)
    await waitFor(() => expect(hooks.mfa.challenge?.status).toBe('pending'))
    expect(instance.getUiState().mfaOpen).toBe(false)
    expect(screen.queryByRole('heading', { name: 'Enter verification code' })).toBeNull()
    await expect(act(() => hooks.mfa.submit('totp', '111111'))).rejects.toMatchObject({
      code: 'MFA_INVALID_CODE',
    })
    expect(hooks.mfa.challenge).toMatchObject({ status: 'pending', attemptsLeft: 3 })
    await act(() => hooks.mfa.submit('totp', '123456'))
    expect(await result).toEqual({ value: { signature: '0xsignature' } })
  })

  it('fails at once with MFA_REQUIRED when nothing answers challenges', async () => {
    const { hooks, stop } = setup()
    stop()
    const { error } = (await sign(hooks)) as { error: LatchkeyError }
    expect(error.code).toBe('MFA_REQUIRED')
  })
})
