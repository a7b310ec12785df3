import { LatchkeyError, type PasskeyAccount } from '@latchkey/core'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { useSyncExternalStore } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { enterCode, heading, passkey, passkeys } from '../../../test/mfa.ts'
import { ChromeContext } from '../../components/chrome.ts'
import { MfaEnrollmentFlow } from './MfaEnrollmentFlow.tsx'
import type { MfaEnrollmentProps, MfaMethod } from './types.ts'

afterEach(cleanup)

type UserState = { enabled: MfaMethod[]; passkeys: PasskeyAccount[] }

/** The user object the parent keeps: each action refreshes it, as a real parent's does. */
function createUser(initial: UserState) {
  let state = initial
  const listeners = new Set<() => void>()
  return {
    get: () => state,
    set(next: Partial<UserState>) {
      state = { ...state, ...next }
      for (const listener of listeners) listener()
    },
    subscribe(listener: () => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
type UserStore = ReturnType<typeof createUser>

type ParentProps = Omit<MfaEnrollmentProps, 'enabledMethods' | 'passkeys'> & { user: UserStore }

/** The parent: renders the flow from the user object's current methods and passkeys. */
function Parent({ user, ...props }: ParentProps) {
  const state = useSyncExternalStore(user.subscribe, user.get)
  return <MfaEnrollmentFlow {...props} enabledMethods={state.enabled} passkeys={state.passkeys} />
}

function renderFlow(start: Partial<UserState> = {}, overrides: Partial<MfaEnrollmentProps> = {}) {
  const user = createUser({ enabled: start.enabled ?? [], passkeys: start.passkeys ?? [] })
  const enable = (method: MfaMethod) => {
    const { enabled } = user.get()
    user.set({ enabled: enabled.includes(method) ? enabled : [...enabled, method] })
  }
  const actions = {
    initTotp: vi.fn(async () => ({
      secret: 'JBSWY3DPEHPK3PXP',
      authUrl: 'otpauth://totp/Acme:ada',
    })),
    submitTotp: vi.fn(async (_code: string) => enable('totp')),
    initSms: vi.fn(async (_phone: string) => {}),
    submitSms: vi.fn(async (_phone: string, _code: string) => enable('sms')),
    enablePasskeys: vi.fn(async (ids: string[]) => {
      user.set({
        passkeys: user
          .get()
          .passkeys.map((p) => (ids.includes(p.credentialId) ? { ...p, enrolledInMfa: true } : p)),
      })
      enable('passkey')
    }),
    addPasskey: vi.fn(async () => {
      const added = passkey(user.get().passkeys.length + 1)
      user.set({ passkeys: [...user.get().passkeys, added] })
      return added
    }),
    unenroll: vi.fn(async (method: MfaMethod, _credentialId?: string) =>
      user.set({ enabled: user.get().enabled.filter((m) => m !== method) }),
    ),
    onClose: vi.fn(),
  }
  render(
    <ChromeContext.Provider value={{ titleId: 't', onClose: () => {} }}>
      <Parent
        user={user}
        allowedMethods={['sms', 'totp', 'passkey']}
        smsUnavailable={false}
        {...actions}
        {...overrides}
      />
    </ChromeContext.Provider>,
  )
  return actions
}
const click = (name: string | RegExp) => fireEvent.click(screen.getByRole('button', { name }))
const row = (name: string) =>
  within(screen.getByRole('list', { name: 'Verification methods' }))
    .getAllByRole('listitem')
    .find((item) => item.textContent?.startsWith(name))
const toList = () => click('Continue')

describe('MfaEnrollmentFlow (spec 02 "Multi-factor enrollment and management", §4)', () => {
  it("'Transaction Protection': Continue to the list, Not now closes", () => {
    const { onClose } = renderFlow()
    expect(heading()).toBe('Transaction Protection')
    click('Not now')
    expect(onClose).toHaveBeenCalledTimes(1)
    toList()
    expect(heading()).toBe('Choose a verification method')
    click('Done')
    expect(onClose).toHaveBeenCalledTimes(2)
  })

  it('skipIntro starts at the list; the close icon closes', () => {
    const { onClose } = renderFlow({}, { skipIntro: true })
    expect(heading()).toBe('Choose a verification method')
    click('Close')
    expect(onClose).toHaveBeenCalled()
  })

  it('authenticator app: QR code, code, added, back to the list', async () => {
    const flow = renderFlow()
    toList()
    click(/^Authenticator app/)
    expect(await screen.findByRole('heading', { name: 'Scan QR code' })).toBeTruthy()
    click('Continue')
    expect(heading()).toBe('Enter enrollment code')
    // Back returns to the same QR code without a new setup.
    click('Back')
    expect(heading()).toBe('Scan QR code')
    click('Continue')
    enterCode('246810')
    expect(await screen.findByRole('heading', { name: 'Authenticator app added' })).toBeTruthy()
    expect(flow.initTotp).toHaveBeenCalledTimes(1)
    expect(flow.submitTotp).toHaveBeenCalledWith('246810')
    click('Done')
    expect(row('Authenticator app')?.textContent).toContain('Enabled')
  })

  it('a failed authenticator setup stays on the list with the reason', async () => {
    renderFlow(
      {},
      {
        initTotp: vi.fn(async () => {
          throw new LatchkeyError('MFA_REQUIRED')
        }),
      },
    )
    toList()
    click(/^Authenticator app/)
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Verify your identity. Enter a code from your verification method to continue.',
    )
    expect(heading()).toBe('Choose a verification method')
  })

  it('SMS: phone, code; back from the code returns to the phone entry, filled in', async () => {
    const flow = renderFlow()
    toList()
    click(/^SMS/)
    expect(heading()).toBe('Set up SMS verification')
    fireEvent.change(screen.getByRole('textbox', { name: 'Phone number' }), {
      target: { value: '4155552671' },
    })
    click('Continue with SMS')
    expect(await screen.findByRole('heading', { name: 'Enter enrollment code' })).toBeTruthy()
    expect(flow.initSms).toHaveBeenCalledWith('+14155552671')
    expect(screen.getByText('Enter the 6-digit code sent to +14155552671.')).toBeTruthy()
    click('Back')
    expect(heading()).toBe('Set up SMS verification')
    expect((screen.getByRole('textbox', { name: 'Phone number' }) as HTMLInputElement).value).toBe(
      '4155552671',
    )
    click('Continue with SMS')
    await screen.findByRole('heading', { name: 'Enter enrollment code' })
    enterCode('135790')
    expect(await screen.findByRole('heading', { name: 'SMS verification added' })).toBeTruthy()
    expect(flow.submitSms).toHaveBeenCalledWith('+14155552671', '135790')
  })

  it('Cancel on an enrollment code returns to the list', async () => {
    renderFlow()
    toList()
    click(/^Authenticator app/)
    await screen.findByRole('heading', { name: 'Scan QR code' })
    click('Continue')
    click('Cancel')
    expect(heading()).toBe('Choose a verification method')
  })

  it('a passkey choice with exactly one linked passkey enrolls it directly', async () => {
    const flow = renderFlow({ passkeys: [passkey(1)] })
    toList()
    click(/^Passkey/)
    expect(await screen.findByRole('heading', { name: 'Passkey verification added' })).toBeTruthy()
    expect(flow.enablePasskeys).toHaveBeenCalledWith(['cred-1'])
  })

  it("with no passkey: 'Set up passkey verification', then 'Add a new passkey' links and enables one", async () => {
    const flow = renderFlow()
    toList()
    click(/^Passkey/)
    expect(heading()).toBe('Set up passkey verification')
    click('Add a new passkey')
    expect(await screen.findByRole('heading', { name: 'Passkey verification added' })).toBeTruthy()
    expect(flow.addPasskey).toHaveBeenCalledTimes(1)
    expect(flow.enablePasskeys).toHaveBeenCalledWith(['cred-1'])
  })

  it('a new passkey whose enabling failed is only enabled on the retry', async () => {
    const flow = renderFlow()
    vi.mocked(flow.enablePasskeys).mockRejectedValueOnce(new LatchkeyError('NETWORK_ERROR'))
    toList()
    click(/^Passkey/)
    click('Add a new passkey')
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not reach the server. Check your connection and try again.',
    )
    click('Add a new passkey')
    expect(await screen.findByRole('heading', { name: 'Passkey verification added' })).toBeTruthy()
    expect(flow.addPasskey).toHaveBeenCalledTimes(1)
    expect(flow.enablePasskeys).toHaveBeenLastCalledWith(['cred-1'])
  })

  it('with several passkeys: the list to choose from', async () => {
    const flow = renderFlow({ passkeys: passkeys(2) })
    toList()
    click(/^Passkey/)
    expect(heading()).toBe('Enable your passkeys for verification')
    fireEvent.click(screen.getByRole('checkbox', { name: /Key 2/ }))
    click('Enable passkeys')
    expect(await screen.findByRole('heading', { name: 'Passkey verification added' })).toBeTruthy()
    expect(flow.enablePasskeys).toHaveBeenCalledWith(['cred-2'])
  })

  it.each([
    ['sms', 'SMS', 'Remove SMS verification?'],
    ['totp', 'Authenticator app', 'Remove authenticator app verification?'],
    ['passkey', 'Passkey', 'Are you sure you want to remove this passkey?'],
  ] as const)('removing %s asks first, then unenrolls', async (method, label, title) => {
    const flow = renderFlow({
      enabled: [method],
      passkeys: method === 'passkey' ? [passkey(1, { enrolledInMfa: true })] : [],
    })
    toList()
    click(`Remove ${label}`)
    expect(heading()).toBe(title)
    click('Cancel')
    expect(row(label)?.textContent).toContain('Enabled')
    click(`Remove ${label}`)
    click('Remove')
    expect(
      await screen.findByRole('heading', { name: 'Choose a verification method' }),
    ).toBeTruthy()
    expect(flow.unenroll).toHaveBeenCalledWith(method, method === 'passkey' ? 'cred-1' : undefined)
    expect(row(label)?.textContent).toContain('Disabled')
  })
})
