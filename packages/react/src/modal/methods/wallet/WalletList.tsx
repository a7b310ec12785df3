import type { WalletOption } from '@latchkey/core/external'
import {
  CONNECT_LIST_MAX_WALLETS,
  CONNECT_LIST_SEARCH_THRESHOLD,
  WALLET_LIST_ROW_HEIGHT_PX,
  WALLET_LIST_VISIBLE_ROWS,
} from '@latchkey/protocol/constants'
import { useState } from 'react'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'

const CHAIN_NAMES = { ethereum: 'Ethereum', solana: 'Solana' } as const

/** Case-insensitive substring match on the label (spec 01 §2). */
export function searchWallets(options: readonly WalletOption[], query: string): WalletOption[] {
  const q = query.trim().toLowerCase()
  return q ? options.filter((o) => o.name.toLowerCase().includes(q)) : [...options]
}

/**
 * What the connect-only list shows before 'More wallets': all of up to 4
 * wallets, else the first 3 and the button (spec 01 §9).
 */
export function collapsedWallets(options: readonly WalletOption[]): {
  shown: WalletOption[]
  more: boolean
} {
  if (options.length <= CONNECT_LIST_MAX_WALLETS) return { shown: [...options], more: false }
  return { shown: options.slice(0, CONNECT_LIST_MAX_WALLETS - 1), more: true }
}

export function WalletIcon({ option }: { option: Pick<WalletOption, 'icon' | 'name'> }) {
  if (option.icon) return <img className="lk-wallet-icon" src={option.icon} alt="" />
  return (
    <span className="lk-wallet-icon lk-wallet-initial" aria-hidden="true">
      {option.name.slice(0, 1).toUpperCase()}
    </span>
  )
}

function WalletRow({
  option,
  recent,
  onPick,
  style,
}: {
  option: WalletOption
  recent: boolean
  onPick(option: WalletOption): void
  style?: React.CSSProperties
}) {
  return (
    <button
      type="button"
      className="lk-option lk-wallet-row"
      style={style}
      data-wallet={option.id}
      aria-label={option.name}
      onClick={() => onPick(option)}
    >
      <WalletIcon option={option} />
      <span className="lk-wallet-name">{option.name}</span>
      <span className="lk-wallet-badges">
        {recent && <span className="lk-chip">Recent</span>}
        {option.installed &&
          option.kind !== 'wallet_connect' &&
          option.kind !== 'coinbase_wallet' && <span className="lk-chip">Detected</span>}
        {option.chainTypes.map((chain) => (
          <span key={chain} className="lk-badge" title={CHAIN_NAMES[chain]}>
            {CHAIN_NAMES[chain]}
          </span>
        ))}
      </span>
    </button>
  )
}

/**
 * A virtualised list (spec 01 §2): rows of 54 px, 5 visible; only the rows
 * in view (and one more) are in the DOM.
 */
function VirtualWalletList({
  options,
  recentId,
  onPick,
}: {
  options: WalletOption[]
  recentId: string | null
  onPick(option: WalletOption): void
}) {
  const [scrollTop, setScrollTop] = useState(0)
  const rowHeight = WALLET_LIST_ROW_HEIGHT_PX
  const height = Math.min(options.length, WALLET_LIST_VISIBLE_ROWS) * rowHeight
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - 1)
  const last = Math.min(options.length, first + WALLET_LIST_VISIBLE_ROWS + 2)
  return (
    <div
      className="lk-wallet-list"
      style={{ height, overflowY: 'auto', position: 'relative' }}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <ul style={{ height: options.length * rowHeight, position: 'relative' }}>
        {options.slice(first, last).map((option, i) => (
          <li
            key={option.key}
            style={{
              position: 'absolute',
              top: (first + i) * rowHeight,
              left: 0,
              right: 0,
              height: rowHeight,
            }}
          >
            <WalletRow option={option} recent={option.id === recentId} onPick={onPick} />
          </li>
        ))}
      </ul>
    </div>
  )
}

export interface WalletListScreenProps {
  options: WalletOption[]
  /** Connect-only: the collapsed list with 'More wallets' first. */
  collapsible: boolean
  title: string
  recentId: string | null
  onPick(option: WalletOption): void
  onBack?: () => void
}

/** The wallet list of the login and connect-only modals (spec 01 §2 "Connect-only wallet screen"). */
export function WalletListScreen({
  options,
  collapsible,
  title,
  recentId,
  onPick,
  onBack,
}: WalletListScreenProps) {
  const [expanded, setExpanded] = useState(!collapsible)
  const [query, setQuery] = useState('')
  if (options.length === 0)
    return (
      <ScreenLayout title={title} onBack={onBack}>
        <p className="lk-message">No wallets found.</p>
      </ScreenLayout>
    )
  if (!expanded) {
    const { shown, more } = collapsedWallets(options)
    return (
      <ScreenLayout title={title} onBack={onBack}>
        <div className="lk-options">
          {shown.map((option) => (
            <WalletRow
              key={option.key}
              option={option}
              recent={option.id === recentId}
              onPick={onPick}
            />
          ))}
          {more && (
            <button type="button" className="lk-option" onClick={() => setExpanded(true)}>
              <span>More wallets</span>
            </button>
          )}
        </div>
      </ScreenLayout>
    )
  }
  const searchable = options.length > CONNECT_LIST_SEARCH_THRESHOLD || query !== ''
  const filtered = searchWallets(options, query)
  return (
    <ScreenLayout
      title={title}
      onBack={
        collapsible
          ? () => {
              setExpanded(false)
              setQuery('')
            }
          : onBack
      }
    >
      {searchable && (
        <input
          className="lk-input"
          type="search"
          aria-label="Search wallets"
          placeholder="Search wallets"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      )}
      {filtered.length === 0 ? (
        <p className="lk-message">No wallets match “{query}”.</p>
      ) : (
        <VirtualWalletList options={filtered} recentId={recentId} onPick={onPick} />
      )}
    </ScreenLayout>
  )
}
