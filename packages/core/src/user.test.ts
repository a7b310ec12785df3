import type { LinkedAccountWire, UserWire } from '@latchkey/protocol/schemas'
import { describe, expect, it } from 'vitest'
import { toUser } from './user.ts'

// The wire user (snake_case, Unix seconds) as the client's `User`: every
// linked account type, field by field. The public shape is what apps read,
// so it is spelled out here rather than derived.

const at = {
  verified_at: 1_700_000_000,
  first_verified_at: 1_600_000_000,
  latest_verified_at: 1_700_000_001,
}
const dates = {
  verifiedAt: new Date(1_700_000_000_000),
  firstVerifiedAt: new Date(1_600_000_000_000),
  latestVerifiedAt: new Date(1_700_000_001_000),
}
const EVM = '0x00000000000000000000000000000000000000aa'

const cases: Array<[LinkedAccountWire, unknown]> = [
  [
    { type: 'email', address: 'ada@example.com', ...at },
    { type: 'email', address: 'ada@example.com', ...dates },
  ],
  [
    { type: 'phone', number: '+14155550100', ...at },
    { type: 'phone', number: '+14155550100', ...dates },
  ],
  [
    {
      type: 'wallet',
      address: EVM,
      chain_type: 'ethereum',
      wallet_index: 0,
      wallet_client_type: 'latchkey',
      connector_type: 'embedded',
      imported: false,
      delegated: true,
      recovery_method: 'latchkey',
      entropy_id: 'ent_1',
      ...at,
    },
    {
      type: 'wallet',
      address: EVM,
      chainType: 'ethereum',
      walletIndex: 0,
      walletClientType: 'latchkey',
      connectorType: 'embedded',
      imported: false,
      delegated: true,
      recoveryMethod: 'latchkey',
      entropyId: 'ent_1',
      ...dates,
    },
  ],
  [
    {
      type: 'wallet',
      address: EVM,
      chain_type: 'ethereum',
      chain_id: 'eip155:1',
      wallet_client_type: 'metamask',
      connector_type: 'injected',
      wallet_index: null,
      imported: false,
      delegated: false,
      ...at,
    },
    {
      type: 'wallet',
      address: EVM,
      chainType: 'ethereum',
      chainId: 'eip155:1',
      walletIndex: null,
      walletClientType: 'metamask',
      connectorType: 'injected',
      imported: false,
      delegated: false,
      ...dates,
    },
  ],
  [
    {
      type: 'farcaster',
      fid: 3,
      owner_address: EVM,
      username: 'dwr',
      display_name: 'Dan',
      bio: null,
      profile_picture_url: 'https://example.com/p.png',
      signer_public_key: null,
      ...at,
    },
    {
      type: 'farcaster',
      fid: 3,
      ownerAddress: EVM,
      username: 'dwr',
      displayName: 'Dan',
      bio: null,
      pfp: 'https://example.com/p.png',
      signerPublicKey: null,
      ...dates,
    },
  ],
  [
    {
      type: 'telegram',
      telegram_user_id: '42',
      first_name: 'Ada',
      last_name: null,
      username: 'ada',
      photo_url: null,
      ...at,
    },
    {
      type: 'telegram',
      telegramUserId: '42',
      firstName: 'Ada',
      lastName: null,
      username: 'ada',
      photoUrl: null,
      ...dates,
    },
  ],
  [
    { type: 'custom', custom_user_id: 'u-1', ...at },
    { type: 'custom', customUserId: 'u-1', ...dates },
  ],
  [
    { type: 'guest', ...at },
    { type: 'guest', ...dates },
  ],
  [
    {
      type: 'google',
      subject: 'g-1',
      email: 'ada@gmail.com',
      name: 'Ada',
      username: null,
      profile_picture_url: 'https://example.com/g.png',
      ...at,
    },
    {
      type: 'google',
      subject: 'g-1',
      email: 'ada@gmail.com',
      name: 'Ada',
      username: null,
      profilePictureUrl: 'https://example.com/g.png',
      ...dates,
    },
  ],
  [
    {
      type: 'passkey',
      credential_id: 'AAEC',
      authenticator_name: 'iCloud Keychain',
      created_with_browser: 'Chrome',
      created_with_os: 'macOS',
      created_with_device: null,
      enrolled_in_mfa: true,
      ...at,
    },
    {
      type: 'passkey',
      credentialId: 'AAEC',
      authenticatorName: 'iCloud Keychain',
      createdWithBrowser: 'Chrome',
      createdWithOs: 'macOS',
      createdWithDevice: null,
      enrolledInMfa: true,
      ...dates,
    },
  ],
  [
    {
      type: 'cross_app',
      subject: 'did:latchkey:1',
      provider_app: { id: 'app_1' },
      embedded_wallets: [{ address: EVM, chain_type: 'ethereum' }],
      smart_wallets: [{ address: EVM }],
      ...at,
    },
    {
      type: 'cross_app',
      subject: 'did:latchkey:1',
      providerApp: { id: 'app_1' },
      embeddedWallets: [{ address: EVM, chainType: 'ethereum' }],
      smartWallets: [{ address: EVM }],
      ...dates,
    },
  ],
  [
    {
      type: 'smart_wallet',
      address: EVM,
      smart_wallet_type: 'safe',
      smart_wallet_version: '3.1',
      ...at,
    },
    {
      type: 'smart_wallet',
      address: EVM,
      smartWalletType: 'safe',
      smartWalletVersion: '3.1',
      ...dates,
    },
  ],
]

const wireUser = (linked_accounts: LinkedAccountWire[]): UserWire => ({
  id: 'user_1',
  created_at: 1_500_000_000,
  linked_accounts,
  mfa_methods: ['totp'],
  has_accepted_terms: true,
  is_guest: false,
})

describe('toUser', () => {
  it.each(cases.map(([wire, expected]) => [wire.type, wire, expected] as const))(
    'maps a %s account field by field',
    (_type, wire, expected) => {
      expect(toUser(wireUser([wire])).linkedAccounts).toStrictEqual([expected])
    },
  )

  it('fills the shortcuts from the first email, phone, farcaster and the first embedded Ethereum wallet', () => {
    const user = toUser(wireUser(cases.map(([wire]) => wire)))
    expect(user).toMatchObject({
      id: 'user_1',
      createdAt: new Date(1_500_000_000_000),
      email: { address: 'ada@example.com' },
      phone: { number: '+14155550100' },
      wallet: { address: EVM, chainType: 'ethereum' },
      farcaster: { fid: 3, username: 'dwr' },
      mfaMethods: ['totp'],
      hasAcceptedTerms: true,
      isGuest: false,
    })
    expect(user.linkedAccounts).toHaveLength(cases.length)
  })

  it('leaves the shortcuts out when no account fills them', () => {
    const user = toUser(wireUser([]))
    expect(Object.keys(user)).not.toContain('email')
    expect(Object.keys(user)).not.toContain('wallet')
  })
})
