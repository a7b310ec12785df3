import type { WalletOption } from '@latchkey/core/external'
import {
  CONNECT_LIST_MAX_WALLETS,
  WALLET_LIST_ROW_HEIGHT_PX,
  WALLET_LIST_VISIBLE_ROWS,
} from '@latchkey/protocol/constants'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { collapsedWallets, searchWallets, WalletListScreen } from './WalletList.tsx'

// The wallet list of the login and connect-only modals (spec 01 §2
// "Connect-only wallet screen"): 4 wallets or 3 plus 'More wallets', search
// past 6 wallets, a virtualised list of 54 px rows with 5 visible.

afterEach(cleanup)

const option = (name: string, overrides: Partial<WalletOption> = {}): WalletOption => {
  const id = name.toLowerCase().replace(/\s+/g, '_')
  return {
    key: `eip6963:${id}`,
    id,
    name,
    icon: null,
    chainTypes: ['ethereum'],
    installed: true,
    kind: 'injected',
    ...overrides,
  }
}
const numbered = (n: number) =>
  Array.from({ length: n }, (_, i) => option(`Wallet ${String(i + 1).padStart(2, '0')}`))

const names = (list: readonly WalletOption[]) => list.map((o) => o.name)

/** The wallet rows in the DOM (each row is a button named after its wallet). */
const rowNames = () =>
  Array.from(document.querySelectorAll<HTMLButtonElement>('button[data-wallet]')).map((b) =>
    b.getAttribute('aria-label'),
  )

function renderList(props: Partial<Parameters<typeof WalletListScreen>[0]> = {}) {
  const onPick = vi.fn()
  const onBack = vi.fn()
  const view = render(
    <WalletListScreen
      options={props.options ?? numbered(3)}
      collapsible={props.collapsible ?? false}
      title={props.title ?? 'Connect a wallet'}
      recentId={props.recentId ?? null}
      onPick={props.onPick ?? onPick}
      onBack={'onBack' in props ? props.onBack : onBack}
    />,
  )
  return { ...view, onPick, onBack }
}

describe('searchWallets', () => {
  const list = [option('MetaMask'), option('Coinbase Wallet'), option('Rainbow'), option('Phantom')]

  it('matches a case-insensitive substring of the name', () => {
    expect(names(searchWallets(list, 'meta'))).toEqual(['MetaMask'])
    expect(names(searchWallets(list, 'WALLET'))).toEqual(['Coinbase Wallet'])
    expect(names(searchWallets(list, 'a'))).toEqual([
      'MetaMask',
      'Coinbase Wallet',
      'Rainbow',
      'Phantom',
    ])
    expect(names(searchWallets(list, 'ntom'))).toEqual(['Phantom'])
  })

  it('trims the query; an empty query keeps every wallet (as a new array)', () => {
    expect(names(searchWallets(list, '  rain  '))).toEqual(['Rainbow'])
    const all = searchWallets(list, '   ')
    expect(names(all)).toEqual(names(list))
    expect(all).not.toBe(list)
  })

  it('matches the name only, not the id or key', () => {
    const odd = [option('Trusty', { id: 'metamask', key: 'eip6963:metamask' })]
    expect(searchWallets(odd, 'metamask')).toEqual([])
  })

  it('returns nothing when no name matches', () => {
    expect(searchWallets(list, 'ledger')).toEqual([])
  })
})

describe('collapsedWallets', () => {
  it(`shows all of up to ${CONNECT_LIST_MAX_WALLETS} wallets without 'More wallets'`, () => {
    for (const n of [0, 1, 3, 4]) {
      const { shown, more } = collapsedWallets(numbered(n))
      expect(shown).toHaveLength(n)
      expect(more).toBe(false)
    }
  })

  it("shows the first 3 and 'More wallets' from 5 wallets on", () => {
    for (const n of [5, 6, 20]) {
      const list = numbered(n)
      const { shown, more } = collapsedWallets(list)
      expect(names(shown)).toEqual(names(list.slice(0, 3)))
      expect(more).toBe(true)
    }
  })
})

describe('WalletListScreen', () => {
  it('draws the title and a row per wallet; a click picks it', () => {
    const list = [option('MetaMask'), option('Rainbow')]
    const { onPick } = renderList({ options: list, title: 'Log in with a wallet' })
    expect(screen.getByRole('heading', { name: 'Log in with a wallet' })).toBeTruthy()
    expect(rowNames()).toEqual(['MetaMask', 'Rainbow'])
    fireEvent.click(screen.getByRole('button', { name: 'Rainbow' }))
    expect(onPick).toHaveBeenCalledTimes(1)
    expect(onPick).toHaveBeenCalledWith(list[1])
  })

  it("reads 'No wallets found.' with no wallets", () => {
    renderList({ options: [] })
    expect(screen.getByText('No wallets found.')).toBeTruthy()
    expect(rowNames()).toEqual([])
  })

  it('has Back when given onBack (non-collapsible)', () => {
    const { onBack } = renderList({ options: numbered(2) })
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    expect(onBack).toHaveBeenCalledTimes(1)
  })

  it('has no Back without onBack', () => {
    renderList({ options: numbered(2), onBack: undefined })
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull()
  })

  describe('collapsible (connect-only)', () => {
    it("shows all of 4 wallets and no 'More wallets'", () => {
      renderList({ options: numbered(4), collapsible: true })
      expect(rowNames()).toEqual(['Wallet 01', 'Wallet 02', 'Wallet 03', 'Wallet 04'])
      expect(screen.queryByRole('button', { name: 'More wallets' })).toBeNull()
    })

    it("shows 3 rows and 'More wallets', which opens the full list; Back collapses it again", () => {
      const { onBack } = renderList({ options: numbered(5), collapsible: true })
      expect(rowNames()).toEqual(['Wallet 01', 'Wallet 02', 'Wallet 03'])
      expect(screen.queryByRole('list')).toBeNull()

      fireEvent.click(screen.getByRole('button', { name: 'More wallets' }))
      expect(rowNames()).toEqual(['Wallet 01', 'Wallet 02', 'Wallet 03', 'Wallet 04', 'Wallet 05'])
      expect(screen.getByRole('list')).toBeTruthy()
      expect(screen.queryByRole('button', { name: 'More wallets' })).toBeNull()
      // 5 wallets: no search.
      expect(screen.queryByRole('searchbox', { name: 'Search wallets' })).toBeNull()

      // Back in the expanded list returns to the collapsed one, not out of the screen.
      fireEvent.click(screen.getByRole('button', { name: 'Back' }))
      expect(onBack).not.toHaveBeenCalled()
      expect(rowNames()).toEqual(['Wallet 01', 'Wallet 02', 'Wallet 03'])
      expect(screen.getByRole('button', { name: 'More wallets' })).toBeTruthy()
    })

    it('a collapsed row picks its wallet', () => {
      const list = numbered(6)
      const { onPick } = renderList({ options: list, collapsible: true })
      fireEvent.click(screen.getByRole('button', { name: 'Wallet 02' }))
      expect(onPick).toHaveBeenCalledWith(list[1])
    })

    it('Back from the expanded list clears the search', () => {
      renderList({ options: numbered(8), collapsible: true })
      fireEvent.click(screen.getByRole('button', { name: 'More wallets' }))
      fireEvent.change(screen.getByRole('searchbox', { name: 'Search wallets' }), {
        target: { value: '07' },
      })
      expect(rowNames()).toEqual(['Wallet 07'])
      fireEvent.click(screen.getByRole('button', { name: 'Back' }))
      fireEvent.click(screen.getByRole('button', { name: 'More wallets' }))
      expect(
        (screen.getByRole('searchbox', { name: 'Search wallets' }) as HTMLInputElement).value,
      ).toBe('')
      // All 8 again (7 of them drawn: the list is virtualised).
      expect(rowNames()).toEqual(names(numbered(7)))
    })
  })

  describe('search', () => {
    it('is not offered with 6 wallets or fewer', () => {
      renderList({ options: numbered(6) })
      expect(screen.queryByRole('searchbox', { name: 'Search wallets' })).toBeNull()
      expect(rowNames()).toHaveLength(6)
    })

    it('is offered with more than 6 wallets and filters case-insensitively', () => {
      const list = [
        option('MetaMask'),
        option('Coinbase Wallet'),
        option('Rainbow'),
        option('Phantom'),
        option('Rabby'),
        option('Zerion'),
        option('Trust Wallet'),
      ]
      renderList({ options: list })
      const search = screen.getByRole('searchbox', { name: 'Search wallets' }) as HTMLInputElement
      expect(search.placeholder).toBe('Search wallets')

      fireEvent.change(search, { target: { value: 'WALLET' } })
      expect(rowNames()).toEqual(['Coinbase Wallet', 'Trust Wallet'])
      fireEvent.change(search, { target: { value: 'ra' } })
      expect(rowNames()).toEqual(['Rainbow', 'Rabby'])
      fireEvent.change(search, { target: { value: '' } })
      expect(rowNames()).toHaveLength(7)
    })

    it("reads 'No wallets match' when nothing matches, and keeps the search box", () => {
      renderList({ options: numbered(7) })
      fireEvent.change(screen.getByRole('searchbox', { name: 'Search wallets' }), {
        target: { value: 'ledger' },
      })
      expect(screen.getByText('No wallets match “ledger”.')).toBeTruthy()
      expect(rowNames()).toEqual([])
      expect(screen.queryByRole('list')).toBeNull()
      expect(screen.getByRole('searchbox', { name: 'Search wallets' })).toBeTruthy()
    })

    it('stays while a search is active even when the list shrinks to 6 or fewer', () => {
      const { rerender, onPick, onBack } = renderList({ options: numbered(7) })
      fireEvent.change(screen.getByRole('searchbox', { name: 'Search wallets' }), {
        target: { value: 'wallet 0' },
      })
      const fewer = numbered(3)
      rerender(
        <WalletListScreen
          options={fewer}
          collapsible={false}
          title="Connect a wallet"
          recentId={null}
          onPick={onPick}
          onBack={onBack}
        />,
      )
      expect(screen.getByRole('searchbox', { name: 'Search wallets' })).toBeTruthy()
      expect(rowNames()).toEqual(['Wallet 01', 'Wallet 02', 'Wallet 03'])
      fireEvent.change(screen.getByRole('searchbox', { name: 'Search wallets' }), {
        target: { value: '' },
      })
      expect(screen.queryByRole('searchbox', { name: 'Search wallets' })).toBeNull()
    })
  })

  describe('virtualisation', () => {
    /** The scrolling box around the list (its height is the 5 visible rows). */
    const scroller = () => {
      const box = screen.getByRole('list').closest<HTMLElement>('.lk-wallet-list')
      if (!box) throw new Error('no .lk-wallet-list around the list')
      return box
    }

    it(`sizes the view to ${WALLET_LIST_VISIBLE_ROWS} rows of ${WALLET_LIST_ROW_HEIGHT_PX} px, the list to all rows`, () => {
      renderList({ options: numbered(20) })
      expect(scroller().style.height).toBe(
        `${WALLET_LIST_VISIBLE_ROWS * WALLET_LIST_ROW_HEIGHT_PX}px`,
      )
      expect(scroller().style.overflowY).toBe('auto')
      const all = scroller().firstElementChild as HTMLElement
      expect(all.style.height).toBe(`${20 * WALLET_LIST_ROW_HEIGHT_PX}px`)
    })

    it('a short list is only as tall as its rows', () => {
      renderList({ options: numbered(3) })
      expect(scroller().style.height).toBe(`${3 * WALLET_LIST_ROW_HEIGHT_PX}px`)
    })

    it('renders only the rows in view (plus a margin); scrolling renders later rows', () => {
      const list20 = numbered(20)
      const { onPick } = renderList({ options: list20 })
      const list = screen.getByRole('list')
      expect(within(list).getAllByRole('button')).toHaveLength(7)
      expect(rowNames()).toEqual(names(list20.slice(0, 7)))
      const items = within(list).getAllByRole('listitem')
      expect(items.map((item) => item.style.top)).toEqual(
        [0, 1, 2, 3, 4, 5, 6].map((i) => `${i * WALLET_LIST_ROW_HEIGHT_PX}px`),
      )

      // Scroll to row 10: rows 9..15 (one above the view) are drawn at their offsets.
      const box = scroller()
      box.scrollTop = 10 * WALLET_LIST_ROW_HEIGHT_PX
      fireEvent.scroll(box)
      expect(rowNames()).toEqual(names(list20.slice(9, 16)))
      expect(screen.queryByRole('button', { name: 'Wallet 01' })).toBeNull()
      expect(within(screen.getByRole('list')).getAllByRole('listitem')[0]?.style.top).toBe(
        `${9 * WALLET_LIST_ROW_HEIGHT_PX}px`,
      )
      fireEvent.click(screen.getByRole('button', { name: 'Wallet 14' }))
      expect(onPick).toHaveBeenCalledWith(list20[13])

      // The bottom: the last rows, never past the end.
      box.scrollTop = 15 * WALLET_LIST_ROW_HEIGHT_PX
      fireEvent.scroll(box)
      expect(rowNames()).toEqual(names(list20.slice(14, 20)))
    })

    it('a filtered list starts from its first match', () => {
      const list = [...numbered(12), option('Zerion'), option('Zapper')]
      renderList({ options: list })
      fireEvent.change(screen.getByRole('searchbox', { name: 'Search wallets' }), {
        target: { value: 'z' },
      })
      expect(rowNames()).toEqual(['Zerion', 'Zapper'])
    })
  })

  describe('rows', () => {
    it('show a chain badge per chain type', () => {
      renderList({
        options: [
          option('MetaMask'),
          option('Phantom', { chainTypes: ['ethereum', 'solana'] }),
          option('Solflare', { chainTypes: ['solana'], kind: 'wallet_standard' }),
        ],
      })
      const badges = (name: string) =>
        Array.from(
          screen.getByRole('button', { name }).querySelectorAll<HTMLElement>('.lk-badge'),
        ).map((b) => [b.textContent, b.title])
      expect(badges('MetaMask')).toEqual([['Ethereum', 'Ethereum']])
      expect(badges('Phantom')).toEqual([
        ['Ethereum', 'Ethereum'],
        ['Solana', 'Solana'],
      ])
      expect(badges('Solflare')).toEqual([['Solana', 'Solana']])
    })

    it("mark the recent wallet 'Recent', and only it", () => {
      renderList({
        options: [option('MetaMask'), option('Rainbow'), option('Phantom')],
        recentId: 'rainbow',
      })
      expect(
        within(screen.getByRole('button', { name: 'Rainbow' })).getByText('Recent'),
      ).toBeTruthy()
      expect(screen.getAllByText('Recent')).toHaveLength(1)
    })

    it('mark the recent wallet in the collapsed list too', () => {
      renderList({ options: numbered(5), collapsible: true, recentId: 'wallet_02' })
      expect(
        within(screen.getByRole('button', { name: 'Wallet 02' })).getByText('Recent'),
      ).toBeTruthy()
      expect(screen.getAllByText('Recent')).toHaveLength(1)
    })

    it("mark installed extensions 'Detected', not WalletConnect, Coinbase Wallet or ones to install", () => {
      renderList({
        options: [
          option('MetaMask'),
          option('Backpack', { kind: 'wallet_standard', chainTypes: ['solana'] }),
          option('WalletConnect', { key: 'wallet_connect', kind: 'wallet_connect' }),
          option('Coinbase Wallet', { key: 'coinbase_wallet', kind: 'coinbase_wallet' }),
          option('Rainbow', { key: 'install:rainbow', installed: false, kind: 'not_installed' }),
        ],
      })
      const detected = (name: string) =>
        within(screen.getByRole('button', { name })).queryByText('Detected') !== null
      expect(detected('MetaMask')).toBe(true)
      expect(detected('Backpack')).toBe(true)
      expect(detected('WalletConnect')).toBe(false)
      expect(detected('Coinbase Wallet')).toBe(false)
      expect(detected('Rainbow')).toBe(false)
    })

    it("show the wallet's icon, else its initial", () => {
      renderList({
        options: [option('MetaMask', { icon: 'data:image/svg+xml,<svg/>' }), option('rainbow')],
      })
      const img = screen.getByRole('button', { name: 'MetaMask' }).querySelector('img')
      expect(img?.getAttribute('src')).toBe('data:image/svg+xml,<svg/>')
      expect(img?.getAttribute('alt')).toBe('')
      const initial = screen
        .getByRole('button', { name: 'rainbow' })
        .querySelector('.lk-wallet-initial')
      expect(initial?.textContent).toBe('R')
      expect(initial?.getAttribute('aria-hidden')).toBe('true')
    })
  })
})
