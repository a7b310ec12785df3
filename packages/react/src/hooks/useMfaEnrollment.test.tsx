import { act, cleanup } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWithWallets } from '../test/wallet.tsx'
import { useMfaEnrollment } from './useMfaEnrollment.ts'

afterEach(() => cleanup())

const user = {
  id: 'did:latchkey:user1',
  created_at: 1,
  mfa_methods: [],
  has_accepted_terms: false,
  is_guest: false,
  linked_accounts: [],
}

type Hook = { current: ReturnType<typeof useMfaEnrollment> }
function Probe({ hook }: { hook: Hook }) {
  hook.current = useMfaEnrollment()
  return null
}

function setup(hostConfig = {}) {
  const hook = {} as Hook
  const requests: unknown[] = []
  const rendered = renderWithWallets(<Probe hook={hook} />, {
    enclave: (event, data) => {
      if (event !== 'latchkey:mfa:unenroll') return undefined
      requests.push(data.request)
      return { user }
    },
  })
  act(() => rendered.instance.setHostConfig(hostConfig))
  return { hook, requests }
}

describe('useMfaEnrollment().unenroll', () => {
  it('keeps a passkey as a login by default, and unlinks it with shouldUnlinkOnUnenrollMfa', async () => {
    const kept = setup()
    await kept.hook.current.unenroll('passkey', { credentialId: 'cred' })
    expect(kept.requests).toEqual([
      { method: 'passkey', credential_id: 'cred', remove_for_login: false },
    ])
    cleanup()
    const unlinked = setup({ passkeys: { shouldUnlinkOnUnenrollMfa: true } })
    await unlinked.hook.current.unenroll('passkey', { credentialId: 'cred' })
    await unlinked.hook.current.unenroll('totp')
    expect(unlinked.requests).toEqual([
      { method: 'passkey', credential_id: 'cred', remove_for_login: true },
      { method: 'totp' },
    ])
  })
})
