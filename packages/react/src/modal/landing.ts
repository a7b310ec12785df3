import type { LoginMethod } from '@latchkey/core'
import { isWalletEntry, type LandingEntry, SOCIAL_METHODS } from './landing-entries.ts'

/** Spec 01 §9: at most 5 rows (4 when a wallet overflow button is needed). */
export const LANDING_MAX_ROWS = 5
/** Spec 01 §2: after 3 web2 rows the rest overflow. */
export const LANDING_MAX_WEB2_ROWS = 3
/** More primary methods than this draws a warning (they will not all fit). */
export const LANDING_PRIMARY_WARN = 4

/** The wallet overflow button's labels (spec 01 §2). */
export const CONTINUE_WITH_A_WALLET = 'Continue with a wallet'
export const OTHER_WALLETS = 'Other wallets'

export interface LandingLayoutInput {
  /** `loginMethods` (or the server's), in order. */
  methods: readonly LoginMethod[]
  /** `loginMethodsAndOrder`: wins over `methods` when set. */
  order?: { primary: readonly LandingEntry[]; overflow?: readonly LandingEntry[] } | null
  /** Default 'web2-first'; only reorders `methods` (an explicit order is kept as given). */
  groupPriority?: 'web2-first' | 'web3-first'
  /** Methods this build can draw; others are dropped silently. */
  available: readonly LoginMethod[]
  /**
   * The app's wallet list as wallet ids, detected wallets included; null
   * until it is known (its code loads on demand). Web3-first layouts give
   * these rows; 'Other wallets' lists those without one.
   */
  wallets?: readonly string[] | null
  /** The wallet ids an order's wallet entry stands for ('detected_wallets' → each detected wallet). */
  expandWallet?: (entry: string) => readonly string[]
  warn?: (message: string) => void
}

export interface LandingLayout {
  /**
   * The rows, in order: login methods, wallet ids (a wallet's own row), and
   * 'wallet' where the wallet overflow button goes.
   */
  rows: LandingEntry[]
  /** The rest of the methods, behind one more row. */
  overflow: { label: 'Other socials' | 'More options'; methods: LoginMethod[] } | null
  /**
   * The wallet overflow button: 'Continue with a wallet' when no wallet has
   * a row, else 'Other wallets'. `wallets`: the ids it lists, or null for
   * the app's whole wallet list.
   */
  walletButton: {
    label: typeof CONTINUE_WITH_A_WALLET | typeof OTHER_WALLETS
    wallets: string[] | null
  } | null
}

/** Keeps each entry's first occurrence, warning about the rest. */
function dedupe<T extends string>(list: readonly T[], warn: (m: string) => void, what: string) {
  const seen = new Set<T>()
  const out: T[] = []
  for (const entry of list) {
    if (seen.has(entry)) warn(`Latchkey: ${what} lists '${entry}' twice; keeping the first.`)
    else {
      seen.add(entry)
      out.push(entry)
    }
  }
  return out
}

interface Fill {
  rows: LandingEntry[]
  methods: LoginMethod[]
  wallets: string[]
}

/**
 * Fills at most `maxRows` rows (the wallet button's 'wallet' marker is not a
 * row) and at most 3 web2 rows; the rest overflow. When methods overflow,
 * their button takes the last row.
 */
function fill(primary: readonly LandingEntry[], overflow: readonly LoginMethod[], maxRows: number) {
  const out: Fill = { rows: [], methods: [], wallets: [] }
  let rows = 0
  let web2Rows = 0
  for (const entry of primary) {
    const wallet = isWalletEntry(entry)
    if (entry === 'wallet') out.rows.push(entry)
    else if (rows < maxRows && (wallet || web2Rows < LANDING_MAX_WEB2_ROWS)) {
      out.rows.push(entry)
      rows++
      if (!wallet) web2Rows++
    } else if (wallet) out.wallets.push(entry)
    else out.methods.push(entry as LoginMethod)
  }
  out.methods.push(...overflow)
  if (out.methods.length === 0) return out
  // The overflow button takes a row of its own.
  for (let i = out.rows.length - 1; rows >= maxRows && i >= 0; i--) {
    const entry = out.rows[i] as LandingEntry
    if (entry === 'wallet') continue
    out.rows.splice(i, 1)
    rows--
    if (isWalletEntry(entry)) out.wallets.unshift(entry)
    else out.methods.unshift(entry as LoginMethod)
  }
  return out
}

/**
 * The landing screen's layout (spec 01 §2, §9): which methods and wallets
 * get a row, which methods go behind 'Other socials' (only socials left) or
 * 'More options', and which wallets behind 'Continue with a wallet' (no
 * wallet has a row) or 'Other wallets'.
 *
 * With `loginMethodsAndOrder`, `primary` are the rows (first entry of a
 * duplicate kept, duplicates warned, more than 4 warned) and `overflow` goes
 * behind the buttons; a wallet entry is a wallet's own row, 'wallet' the
 * wallet button (in `overflow`: a 'More options' entry). Otherwise
 * `loginMethods` web2-first (the wallet button after the other methods) or
 * web3-first (the app's wallets as rows first, in the rows the other methods
 * leave, then the wallet button). Either way at most 5 rows, 4 when the
 * wallet button is drawn, and at most 3 web2 rows.
 *
 * @example
 * landingLayout({ methods: ['email', 'wallet'], available: ['email', 'wallet'] })
 * // { rows: ['email', 'wallet'], overflow: null, walletButton: { label: 'Continue with a wallet', wallets: null } }
 */
export function landingLayout(input: LandingLayoutInput): LandingLayout {
  const warn = input.warn ?? ((message: string) => console.warn(message))
  const available = new Set<string>(input.available)
  const known = input.wallets ?? null
  const expand = input.expandWallet ?? ((entry: string) => [entry])
  const keep = (entry: LandingEntry) => isWalletEntry(entry) || available.has(entry)
  /** Wallet entries become the wallets they stand for, each once. */
  const expandAll = (list: readonly LandingEntry[], seen: Set<string>) =>
    list.flatMap((entry) => {
      const ids = isWalletEntry(entry) ? expand(entry) : [entry]
      return ids.filter((id) => !seen.has(id) && seen.add(id))
    })

  let primary: LandingEntry[]
  let overflow: LoginMethod[] = []
  let overflowWallets: string[] = []
  // Web3-first: the rows the other methods keep (their overflow button included).
  let reserved = 0
  if (input.order) {
    const listed = dedupe(input.order.primary, warn, 'loginMethodsAndOrder.primary')
    if (listed.length > LANDING_PRIMARY_WARN)
      warn(
        `Latchkey: loginMethodsAndOrder.primary has ${listed.length} methods; more than ${LANDING_PRIMARY_WARN} may not fit.`,
      )
    const rest = dedupe(input.order.overflow ?? [], warn, 'loginMethodsAndOrder.overflow').filter(
      (entry) => !listed.includes(entry),
    )
    const seen = new Set<string>()
    primary = expandAll(listed.filter(keep), seen)
    const after = expandAll(rest.filter(keep), seen)
    overflow = after.filter((entry) => !isWalletEntry(entry)) as LoginMethod[]
    overflowWallets = after.filter(isWalletEntry)
  } else {
    const methods = dedupe(input.methods, warn, 'loginMethods').filter(keep) as LoginMethod[]
    const web2 = methods.filter((m) => m !== 'wallet')
    const wallet = methods.includes('wallet') ? (['wallet'] as const) : []
    if (input.groupPriority === 'web3-first') {
      primary = [...(wallet.length > 0 ? (known ?? []) : []), ...wallet, ...web2]
      const web2Rows = Math.min(web2.length, LANDING_MAX_WEB2_ROWS)
      reserved = web2Rows + (web2.length > web2Rows ? 1 : 0)
    } else primary = [...web2, ...wallet]
  }

  const hasButtonEntry = primary.includes('wallet')
  const layOut = (maxRows: number) => {
    // The wallets take the rows the other methods leave.
    const capped: LandingEntry[] = []
    const spilled: string[] = []
    let walletRows = 0
    for (const entry of primary)
      if (isWalletEntry(entry) && walletRows++ >= maxRows - reserved) spilled.push(entry)
      else capped.push(entry)
    const result = fill(capped, overflow, maxRows)
    result.wallets.unshift(...spilled)
    result.wallets.push(...overflowWallets)
    const rowWallets = result.rows.filter(isWalletEntry)
    // The whole list's wallets without a row, when the list is known.
    const unlisted = known ? known.filter((id) => !rowWallets.includes(id)) : null
    const button =
      result.wallets.length > 0 ||
      (hasButtonEntry && (rowWallets.length === 0 || !unlisted || unlisted.length > 0))
    return { result, rowWallets, unlisted, button }
  }
  let laid = layOut(LANDING_MAX_ROWS)
  if (laid.button) laid = layOut(LANDING_MAX_ROWS - 1)
  const { result, rowWallets, unlisted, button } = laid

  const rows = result.rows.filter((entry) => button || entry !== 'wallet')
  if (button && !rows.includes('wallet')) {
    // Right after the last wallet row, else after the rows.
    const lastWallet = rows.map(isWalletEntry).lastIndexOf(true)
    rows.splice(lastWallet === -1 ? rows.length : lastWallet + 1, 0, 'wallet')
  }
  const methods = result.methods
  return {
    rows,
    overflow:
      methods.length === 0
        ? null
        : {
            label: methods.every((m) => SOCIAL_METHODS.has(m)) ? 'Other socials' : 'More options',
            methods,
          },
    walletButton: button
      ? {
          label: rowWallets.length > 0 ? OTHER_WALLETS : CONTINUE_WITH_A_WALLET,
          wallets: hasButtonEntry
            ? rowWallets.length > 0 && unlisted
              ? [...new Set([...unlisted, ...result.wallets])]
              : null
            : result.wallets,
        }
      : null,
  }
}

/**
 * The landing screen draws wallets of its own (so it needs the wallet
 * list): wallet login is on and the layout is web3-first, or the order
 * lists wallets.
 */
export function landingShowsWallets(config: {
  loginMethods: readonly LoginMethod[]
  loginMethodsAndOrder: {
    primary: readonly LandingEntry[]
    overflow: readonly LandingEntry[]
  } | null
  loginGroupPriority: 'web2-first' | 'web3-first'
}): boolean {
  const order = config.loginMethodsAndOrder
  if (order) return [...order.primary, ...order.overflow].some(isWalletEntry)
  return config.loginMethods.includes('wallet') && config.loginGroupPriority === 'web3-first'
}
