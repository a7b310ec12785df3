import { expect, it } from 'vitest'
import { moreFieldsOf, morePatchOf } from '../../console/src/more-settings.ts'

// The "More settings" form's allowlist rejection texts (`allowlist_config`)
// and embedded-wallet mode (`embedded_wallet_config.mode`): settings → fields
// → patch, only what changed, the other keys of the objects it touches kept.

const settings = {
  allowlist: { enabled: true, entries: [{ type: 'email', value: 'a@b.co' }] },
  allowlist_config: { error_title: 'Invite only', error_cta_link: 'https://example.com/join' },
  embedded_wallet_config: {
    create_on_login: { ethereum: 'all-users' },
    user_owned_recovery_options: ['user-passcode'],
  },
  chains: [1],
}

it('shows the stored texts and mode, the default mode when none is stored', () => {
  expect(moreFieldsOf(settings)).toMatchObject({
    allowlistErrorTitle: 'Invite only',
    allowlistErrorDetail: '',
    allowlistErrorCtaText: '',
    allowlistErrorCtaLink: 'https://example.com/join',
    walletMode: 'legacy-embedded-wallets-only',
  })
  const serverOnly = { embedded_wallet_config: { mode: 'user-controlled-server-wallets-only' } }
  expect(moreFieldsOf(serverOnly).walletMode).toBe('user-controlled-server-wallets-only')
  expect(morePatchOf(moreFieldsOf(serverOnly), serverOnly)).toEqual({})
  expect(morePatchOf(moreFieldsOf(settings), settings)).toEqual({})
})

it('patches allowlist_config alone, keeping its other keys; an emptied text drops its key', () => {
  const fields = moreFieldsOf(settings)
  const patch = morePatchOf(
    {
      ...fields,
      allowlistErrorDetail: ' Ask the team for an invitation ',
      allowlistErrorCtaText: 'Request access',
      allowlistErrorTitle: '  ',
    },
    settings,
  )
  expect(patch).toEqual({
    allowlist_config: {
      error_detail: 'Ask the team for an invitation',
      error_cta_text: 'Request access',
      error_cta_link: 'https://example.com/join',
    },
  })
})

it('removes allowlist_config when every text is emptied', () => {
  const fields = moreFieldsOf(settings)
  expect(
    morePatchOf({ ...fields, allowlistErrorTitle: '', allowlistErrorCtaLink: '' }, settings),
  ).toEqual({ allowlist_config: null })
})

it('patches the mode alone, keeping create_on_login and the stored recovery options', () => {
  const fields = moreFieldsOf(settings)
  expect(
    morePatchOf({ ...fields, walletMode: 'user-controlled-server-wallets-only' }, settings),
  ).toEqual({
    embedded_wallet_config: {
      create_on_login: { ethereum: 'all-users' },
      user_owned_recovery_options: ['user-passcode'],
      mode: 'user-controlled-server-wallets-only',
    },
  })
})

it('writes the mode with the recovery fields when both changed, in one object', () => {
  const stored = {
    embedded_wallet_config: {
      require_user_owned_recovery_on_create: true,
      user_owned_recovery_options: ['user-passcode'],
    },
  }
  const fields = moreFieldsOf(stored)
  expect(fields.requireRecoveryOnCreate).toBe(true)
  expect(
    morePatchOf(
      {
        ...fields,
        walletMode: 'user-controlled-server-wallets-only',
        requireRecoveryOnCreate: false,
        recoveryOptions: [],
      },
      stored,
    ),
  ).toEqual({
    embedded_wallet_config: {
      require_user_owned_recovery_on_create: false,
      user_owned_recovery_options: [],
      mode: 'user-controlled-server-wallets-only',
    },
  })
})
