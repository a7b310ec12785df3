import { routes } from '@latchkey/protocol'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppSettings } from '../apps/service.ts'
import { createApp } from '../apps/service.ts'
import { siweSignIn } from '../auth/siwe/testing.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  type AllowlistAccount,
  accountMatchesEntry,
  isCoinbaseWalletName,
  normalizeWalletName,
} from './allowlist.ts'
import { emailLogin, setAppSettings, smsLogin } from './testing.ts'

/*
 * Allowlist (docs/access-control.md "Allowlist"): when enabled, every login
 * — new and existing users, every method — needs a linked account that
 * matches an entry; a rejected new user is never written.
 */

const METHODS: AppSettings['login_methods'] = { email: true, sms: true, wallet: true, guest: true }

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { login_methods: METHODS } })
})
afterAll(() => t.close())

const allowlist = (entries: NonNullable<AppSettings['allowlist']>['entries']): AppSettings => ({
  login_methods: METHODS,
  allowlist: { enabled: true, entries },
})

const newWallet = () => privateKeyToAccount(generatePrivateKey())

async function counts() {
  return { users: await t.countRows('users'), accounts: await t.countRows('linked_accounts') }
}

describe('wallet-name normalisation (spec 01 §5)', () => {
  it.each([
    ['MetaMask-Wallet', 'metamask'],
    ['metamask', 'metamask'],
    ['Rabby-Extension', 'rabby'],
    ['trust_wallet', 'trust'],
    ['Rainbow Wallet', 'rainbow'],
    ['  Phantom ', 'phantom'],
    ['Wallet Guard', 'wallet_guard'],
  ])('%s → %s', (name, normalized) => {
    expect(normalizeWalletName(name)).toBe(normalized)
  })

  it('recognises Coinbase listings', () => {
    for (const name of ['coinbase_wallet', 'Coinbase Wallet', 'coinbase-smart-wallet', 'coinbase'])
      expect(isCoinbaseWalletName(name)).toBe(true)
    expect(isCoinbaseWalletName('metamask')).toBe(false)
  })
})

describe('entry matching', () => {
  const siwe = (address: string, wallet_client_type: string): AllowlistAccount => ({
    type: 'siwe',
    identifier: address.toLowerCase(),
    data: { address, wallet_client_type },
  })

  it('email: exact after normalisation; OAuth verified emails count', () => {
    const entry = { type: 'email' as const, value: ' Alice@Example.com ' }
    expect(
      accountMatchesEntry({ type: 'email', identifier: 'alice@example.com', data: {} }, entry),
    ).toBe(true)
    expect(
      accountMatchesEntry({ type: 'email', identifier: 'alice2@example.com', data: {} }, entry),
    ).toBe(false)
    expect(
      accountMatchesEntry(
        { type: 'google', identifier: 'sub-1', data: { email: 'alice@example.com' } },
        entry,
      ),
    ).toBe(true)
  })

  it('email_domain: the part after @, case-insensitive, no subdomains', () => {
    const entry = { type: 'email_domain' as const, value: '@Example.COM' }
    const email = (identifier: string): AllowlistAccount => ({
      type: 'email',
      identifier,
      data: {},
    })
    expect(accountMatchesEntry(email('bob@example.com'), entry)).toBe(true)
    expect(accountMatchesEntry(email('bob@sub.example.com'), entry)).toBe(false)
    expect(accountMatchesEntry(email('bob@example.com.evil'), entry)).toBe(false)
    expect(
      accountMatchesEntry(
        { type: 'github', identifier: '1', data: { email: 'x@example.com' } },
        entry,
      ),
    ).toBe(true)
  })

  it('phone: E.164 digits, whatever the formatting of the entry', () => {
    const entry = { type: 'phone' as const, value: '+1 (415) 555-0100' }
    expect(
      accountMatchesEntry({ type: 'phone', identifier: '+14155550100', data: {} }, entry),
    ).toBe(true)
    expect(
      accountMatchesEntry({ type: 'phone', identifier: '+14155550101', data: {} }, entry),
    ).toBe(false)
  })

  it('wallet_address: EVM case-insensitive, Solana exact', () => {
    const evm = '0x52908400098527886E0F7030069857D2E4169EE7'
    expect(
      accountMatchesEntry(siwe(evm, 'metamask'), {
        type: 'wallet_address',
        value: evm.toLowerCase(),
      }),
    ).toBe(true)
    const sol = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'
    const solana: AllowlistAccount = { type: 'siws', identifier: sol, data: { address: sol } }
    expect(accountMatchesEntry(solana, { type: 'wallet_address', value: sol })).toBe(true)
    expect(accountMatchesEntry(solana, { type: 'wallet_address', value: sol.toLowerCase() })).toBe(
      false,
    )
  })

  it('wallet_name: normalised on both sides; Coinbase never matches', () => {
    const addr = '0x52908400098527886E0F7030069857D2E4169EE7'
    expect(
      accountMatchesEntry(siwe(addr, 'metamask'), {
        type: 'wallet_name',
        value: 'MetaMask-Wallet',
      }),
    ).toBe(true)
    expect(
      accountMatchesEntry(siwe(addr, 'rabby'), { type: 'wallet_name', value: 'Rabby-Extension' }),
    ).toBe(true)
    expect(
      accountMatchesEntry(siwe(addr, 'rainbow'), { type: 'wallet_name', value: 'metamask' }),
    ).toBe(false)
    expect(
      accountMatchesEntry(siwe(addr, 'coinbase_wallet'), {
        type: 'wallet_name',
        value: 'Coinbase Wallet',
      }),
    ).toBe(false)
    expect(
      accountMatchesEntry(siwe(addr, 'coinbase_wallet'), {
        type: 'wallet_name',
        value: 'coinbase',
      }),
    ).toBe(false)
  })

  it('guests, custom-JWT users, passkeys, Telegram and Farcaster match nothing', () => {
    const entries = [
      { type: 'email' as const, value: 'a@b.co' },
      { type: 'email_domain' as const, value: 'b.co' },
      { type: 'wallet_address' as const, value: '0x52908400098527886E0F7030069857D2E4169EE7' },
    ]
    for (const type of ['guest', 'custom', 'passkey', 'telegram', 'farcaster'])
      for (const entry of entries)
        expect(
          accountMatchesEntry(
            { type, identifier: 'a@b.co', data: { email: 'a@b.co', address: entry.value } },
            entry,
          ),
        ).toBe(false)
  })
})

describe('enforcement through the login routes', () => {
  it('is off by default: anyone logs in', async () => {
    const res = await emailLogin(t, 'anyone@example.net')
    expect(res.status).toBe(200)
  })

  it('an enabled allowlist admits listed emails and domains; others get 403 and nothing is written', async () => {
    await setAppSettings(
      t,
      t.app.id,
      allowlist([
        { type: 'email', value: 'Listed@Example.com' },
        { type: 'email_domain', value: 'team.example' },
      ]),
    )
    expect((await emailLogin(t, 'listed@example.com')).status).toBe(200)
    expect((await emailLogin(t, 'dev@TEAM.example')).status).toBe(200)

    const before = await counts()
    const rejected = await emailLogin(t, 'stranger@example.com')
    expect(rejected).toMatchObject({
      status: 403,
      body: { code: 'ALLOWLIST_REJECTED', message: "You don't have access to this app" },
    })
    expect(await counts()).toEqual(before)
    const row = await t.db
      .selectFrom('linked_accounts')
      .select('id')
      .where('identifier', '=', 'stranger@example.com')
      .executeTakeFirst()
    expect(row).toBeUndefined()
  })

  it('phone entries admit SMS logins by E.164', async () => {
    await setAppSettings(t, t.app.id, allowlist([{ type: 'phone', value: '+1 415 555 0142' }]))
    expect((await smsLogin(t, '+14155550142')).status).toBe(200)
    const before = await counts()
    expect((await smsLogin(t, '+14155550143')).body.code).toBe('ALLOWLIST_REJECTED')
    expect(await counts()).toEqual(before)
  })

  it('wallet_address and wallet_name entries admit SIWE logins; Coinbase names are ignored', async () => {
    const listed = newWallet()
    const named = newWallet()
    const coinbase = newWallet()
    await setAppSettings(
      t,
      t.app.id,
      allowlist([
        { type: 'wallet_address', value: listed.address.toLowerCase() },
        { type: 'wallet_name', value: 'Rainbow-Wallet' },
        { type: 'wallet_name', value: 'Coinbase Wallet' },
      ]),
    )
    expect((await siweSignIn(t, listed)).status).toBe(200)
    const byName = await siweSignIn(t, named, { body: { wallet_client_type: 'rainbow' } })
    expect(byName.status).toBe(200)
    const before = await counts()
    const cb = await siweSignIn(t, coinbase, { body: { wallet_client_type: 'coinbase_wallet' } })
    expect(cb).toMatchObject({ status: 403, body: { code: 'ALLOWLIST_REJECTED' } })
    expect((await siweSignIn(t, newWallet())).body.code).toBe('ALLOWLIST_REJECTED')
    expect(await counts()).toEqual(before)
  })

  it('guests are rejected and never created while the allowlist is on', async () => {
    await setAppSettings(t, t.app.id, allowlist([{ type: 'email_domain', value: 'example.com' }]))
    const before = await counts()
    const res = await t.request(routes.guestAuthenticate, {
      body: { guest_credential: 'g'.repeat(43) },
    })
    expect(res).toMatchObject({ status: 403, body: { code: 'ALLOWLIST_REJECTED' } })
    expect(await counts()).toEqual(before)
  })

  it('an existing user passes when any of their linked accounts matches, with any method', async () => {
    await setAppSettings(t, t.app.id, { login_methods: METHODS })
    const wallet = newWallet()
    const session = await t.login('existing@example.org')
    const linked = await siweSignIn(t, wallet, {
      path: routes.siweLink,
      token: session.token ?? '',
    })
    expect(linked.status).toBe(200)
    const plain = await t.login('unlisted-existing@example.org')

    // Only the linked wallet is listed: the email login still passes.
    await setAppSettings(
      t,
      t.app.id,
      allowlist([{ type: 'wallet_address', value: wallet.address }]),
    )
    const again = await emailLogin(t, 'existing@example.org')
    expect(again).toMatchObject({ status: 200, body: { user: { id: session.user.id } } })
    // An existing user with nothing listed is turned away at login.
    const rejected = await emailLogin(t, 'unlisted-existing@example.org')
    expect(rejected).toMatchObject({ status: 403, body: { code: 'ALLOWLIST_REJECTED' } })
    // …and was not deleted: switching the allowlist off lets them back in.
    await setAppSettings(t, t.app.id, { login_methods: METHODS })
    const back = await emailLogin(t, 'unlisted-existing@example.org')
    expect(back).toMatchObject({ status: 200, body: { user: { id: plain.user.id } } })
  })

  it('an enabled allowlist with no entries admits nobody', async () => {
    await setAppSettings(t, t.app.id, allowlist([]))
    expect((await emailLogin(t, 'listed@example.com')).body.code).toBe('ALLOWLIST_REJECTED')
    await setAppSettings(t, t.app.id, { login_methods: METHODS })
  })

  it('the rejection screen text comes from the app config (allowlist_config)', async () => {
    const app = await t.createApp({
      allowlist_config: { error_title: 'Invite only', error_cta_link: 'https://example.com/join' },
    })
    const { body } = await t.request(routes.appConfig(app.id), { appId: app.id })
    expect(body.allowlist_config).toEqual({
      error_title: 'Invite only',
      error_detail: null,
      error_cta_text: null,
      error_cta_link: 'https://example.com/join',
    })
  })
})

describe('settings validation', () => {
  it.each([
    [{ enabled: 'yes' }],
    [{ enabled: true, entries: [{ type: 'username', value: 'x' }] }],
    [{ enabled: true, entries: [{ type: 'email', value: 'not-an-email' }] }],
    [{ enabled: true, entries: [{ type: 'wallet_address', value: '0x123' }] }],
    [{ enabled: true, entries: [{ type: 'phone', value: 'call me' }] }],
    [{ enabled: true, entries: [{ type: 'email_domain', value: 'localhost' }] }],
  ])('refuses allowlist %j', async (value) => {
    await expect(
      createApp(t.db, {
        name: 'Bad',
        origins: ['http://bad.test'],
        settings: { allowlist: value as AppSettings['allowlist'] },
      }),
    ).rejects.toThrow(/Invalid allowlist/)
  })

  it('accepts a well-formed allowlist', async () => {
    const { app } = await createApp(t.db, {
      name: 'Good',
      origins: ['http://good.test'],
      settings: {
        allowlist: {
          enabled: true,
          entries: [
            { type: 'email', value: 'a@b.co' },
            { type: 'email_domain', value: '@b.co' },
            { type: 'phone', value: '+44 20 7946 0958' },
            { type: 'wallet_address', value: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
            { type: 'wallet_name', value: 'MetaMask' },
          ],
        },
      },
    })
    expect(app.settings.allowlist?.entries).toHaveLength(5)
  })
})
