import type { LoginMethod } from '@latchkey/core'
import { describe, expect, it, vi } from 'vitest'
import { landingLayout } from './landing.ts'

const ALL: LoginMethod[] = [
  'email',
  'sms',
  'google',
  'apple',
  'discord',
  'github',
  'twitter',
  'telegram',
  'wallet',
]

describe('landingLayout', () => {
  it('shows everything when it fits', () => {
    expect(landingLayout({ methods: ['email', 'google'], available: ALL })).toEqual({
      rows: ['email', 'google'],
      overflow: null,
      walletButton: null,
    })
  })

  it("after 3 web2 rows the rest go behind 'Other socials' when only socials are left", () => {
    const layout = landingLayout({
      methods: ['email', 'sms', 'google', 'apple', 'discord'],
      available: ALL,
    })
    expect(layout.rows).toEqual(['email', 'sms', 'google'])
    expect(layout.overflow).toEqual({ label: 'Other socials', methods: ['apple', 'discord'] })
  })

  it("'More options' when the overflow holds a non-social method", () => {
    const layout = landingLayout({
      order: { primary: ['google', 'apple'], overflow: ['email', 'github'] },
      methods: [],
      available: ALL,
    })
    expect(layout.rows).toEqual(['google', 'apple'])
    expect(layout.overflow).toEqual({ label: 'More options', methods: ['email', 'github'] })
  })

  it("web3-first puts the wallet button first; web2-first last, reading 'Continue with a wallet'", () => {
    const methods: LoginMethod[] = ['email', 'wallet', 'google']
    const web2First = landingLayout({ methods, available: ALL })
    expect(web2First.rows).toEqual(['email', 'google', 'wallet'])
    expect(web2First.walletButton).toEqual({ label: 'Continue with a wallet', wallets: null })
    // Web3-first while the wallet list is still loading: no wallet rows yet.
    expect(landingLayout({ methods, available: ALL, groupPriority: 'web3-first' }).rows).toEqual([
      'wallet',
      'email',
      'google',
    ])
  })

  it('at most 5 rows, 4 when the wallet button is needed, keeping a row for the overflow button', () => {
    const primary = ['metamask', 'email', 'google', 'apple']
    const five = landingLayout({
      order: { primary, overflow: ['github'] },
      methods: [],
      available: ALL,
    })
    expect(five.rows).toEqual(['metamask', 'email', 'google', 'apple'])
    expect(five.overflow).toEqual({ label: 'Other socials', methods: ['github'] })
    expect(five.walletButton).toBeNull()

    // A wallet in the overflow needs the wallet button: 4 rows (one of them 'Other socials').
    const four = landingLayout({
      order: { primary, overflow: ['rainbow', 'github'] },
      methods: [],
      available: ALL,
    })
    expect(four.rows).toEqual(['metamask', 'wallet', 'email', 'google'])
    expect(four.overflow).toEqual({ label: 'Other socials', methods: ['apple', 'github'] })
    expect(four.walletButton).toEqual({ label: 'Other wallets', wallets: ['rainbow'] })
  })

  it("web3-first: the app's wallets take the rows the other methods leave, the rest under 'Other wallets'", () => {
    const layout = landingLayout({
      methods: ['email', 'google', 'wallet'],
      groupPriority: 'web3-first',
      available: ALL,
      wallets: ['metamask', 'coinbase_wallet', 'rainbow', 'wallet_connect'],
    })
    expect(layout.rows).toEqual(['metamask', 'coinbase_wallet', 'wallet', 'email', 'google'])
    expect(layout.walletButton).toEqual({
      label: 'Other wallets',
      wallets: ['rainbow', 'wallet_connect'],
    })
    expect(layout.overflow).toBeNull()
  })

  it('web3-first with wallets only: every wallet a row when they fit, no wallet button', () => {
    const fits = landingLayout({
      methods: ['wallet'],
      groupPriority: 'web3-first',
      available: ALL,
      wallets: ['metamask', 'coinbase_wallet', 'rainbow'],
    })
    expect(fits).toEqual({
      rows: ['metamask', 'coinbase_wallet', 'rainbow'],
      overflow: null,
      walletButton: null,
    })
    const six = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => `${id}_wallet`)
    const more = landingLayout({
      methods: ['wallet'],
      groupPriority: 'web3-first',
      available: ALL,
      wallets: six,
    })
    expect(more.rows).toEqual([...six.slice(0, 4), 'wallet'])
    expect(more.walletButton).toEqual({ label: 'Other wallets', wallets: six.slice(4) })
  })

  it("web3-first with many other methods: no room for wallet rows, 'Continue with a wallet' first", () => {
    const layout = landingLayout({
      methods: ['email', 'sms', 'google', 'github', 'wallet'],
      groupPriority: 'web3-first',
      available: ALL,
      wallets: ['metamask', 'rainbow'],
    })
    expect(layout.rows).toEqual(['wallet', 'email', 'sms', 'google'])
    expect(layout.walletButton).toEqual({ label: 'Continue with a wallet', wallets: null })
    expect(layout.overflow).toEqual({ label: 'Other socials', methods: ['github'] })
  })

  it("an order's wallet entries stand for the wallets they expand to; 'wallet' is the button", () => {
    const layout = landingLayout({
      order: { primary: ['detected_wallets', 'wallet', 'email'] },
      methods: [],
      available: ALL,
      wallets: ['metamask', 'phantom', 'rainbow'],
      expandWallet: (entry) => (entry === 'detected_wallets' ? ['metamask', 'phantom'] : [entry]),
    })
    expect(layout.rows).toEqual(['metamask', 'phantom', 'wallet', 'email'])
    expect(layout.walletButton).toEqual({ label: 'Other wallets', wallets: ['rainbow'] })
  })

  it("'wallet' in an order's overflow is a 'More options' entry", () => {
    const layout = landingLayout({
      order: { primary: ['email'], overflow: ['wallet'] },
      methods: [],
      available: ALL,
    })
    expect(layout).toEqual({
      rows: ['email'],
      overflow: { label: 'More options', methods: ['wallet'] },
      walletButton: null,
    })
  })

  it('keeps the first of duplicate primary entries and warns; warns past 4 primary', () => {
    const warn = vi.fn()
    const layout = landingLayout({
      order: { primary: ['email', 'google', 'email', 'apple', 'discord', 'github'] },
      methods: [],
      available: ALL,
      warn,
    })
    expect(layout.rows).toEqual(['email', 'google', 'apple'])
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("lists 'email' twice"))
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('more than 4'))
  })

  it('drops methods this build cannot draw', () => {
    expect(
      landingLayout({ methods: ['email', 'passkey', 'google'], available: ['email', 'google'] })
        .rows,
    ).toEqual(['email', 'google'])
  })
})
