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

  it('web3-first puts the wallet row first; web2-first last', () => {
    const methods: LoginMethod[] = ['email', 'wallet', 'google']
    expect(landingLayout({ methods, available: ALL }).rows).toEqual(['email', 'google', 'wallet'])
    expect(landingLayout({ methods, available: ALL, groupPriority: 'web3-first' }).rows).toEqual([
      'wallet',
      'email',
      'google',
    ])
  })

  it('at most 5 rows, 4 with a wallet overflow button, keeping a row for the overflow button', () => {
    const order = {
      primary: ['wallet', 'email', 'google', 'apple'] as LoginMethod[],
      overflow: ['github'] as LoginMethod[],
    }
    const five = landingLayout({ order, methods: [], available: ALL })
    expect(five.rows).toEqual(['wallet', 'email', 'google', 'apple'])
    expect(five.overflow?.methods).toEqual(['github'])
    const four = landingLayout({ order, methods: [], available: ALL, walletOverflow: true })
    expect(four.rows).toEqual(['wallet', 'email', 'google'])
    expect(four.overflow?.methods).toEqual(['apple', 'github'])
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
