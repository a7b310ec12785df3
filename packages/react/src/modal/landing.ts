import type { LoginMethod } from '@latchkey/core'

/** Social (OAuth) providers: overflow of these alone reads 'Other socials'. */
export const SOCIAL_METHODS: ReadonlySet<LoginMethod> = new Set<LoginMethod>([
  'google',
  'apple',
  'discord',
  'github',
  'linkedin',
  'spotify',
  'instagram',
  'twitter',
  'tiktok',
  'line',
  'telegram',
  'farcaster',
])

/** Web3 methods (loginGroupPriority); everything else is web2. */
const WEB3_METHODS: ReadonlySet<LoginMethod> = new Set<LoginMethod>(['wallet'])

/** Spec 01 §9: at most 5 rows (4 when a wallet overflow button is needed). */
export const LANDING_MAX_ROWS = 5
/** Spec 01 §2: after 3 web2 rows the rest overflow. */
export const LANDING_MAX_WEB2_ROWS = 3
/** More primary methods than this draws a warning (they will not all fit). */
export const LANDING_PRIMARY_WARN = 4

export interface LandingLayoutInput {
  /** `loginMethods` (or the server's), in order. */
  methods: readonly LoginMethod[]
  /** `loginMethodsAndOrder`: wins over `methods` when set. */
  order?: { primary: readonly LoginMethod[]; overflow?: readonly LoginMethod[] } | null
  /** Default 'web2-first'; only reorders `methods` (an explicit order is kept as given). */
  groupPriority?: 'web2-first' | 'web3-first'
  /** A wallet overflow button will be drawn (the wallet list needs its own row). */
  walletOverflow?: boolean
  /** Methods this build can draw; others are dropped silently. */
  available: readonly LoginMethod[]
  warn?: (message: string) => void
}

export interface LandingLayout {
  /** The rows, in order. */
  rows: LoginMethod[]
  /** The rest, behind one more row. */
  overflow: { label: 'Other socials' | 'More options'; methods: LoginMethod[] } | null
}

/** Keeps each method's first entry, warning about the rest. */
function dedupe(list: readonly LoginMethod[], warn: (m: string) => void, what: string) {
  const seen = new Set<LoginMethod>()
  const out: LoginMethod[] = []
  for (const method of list) {
    if (seen.has(method)) warn(`Latchkey: ${what} lists '${method}' twice; keeping the first.`)
    else {
      seen.add(method)
      out.push(method)
    }
  }
  return out
}

/**
 * The landing screen's layout (spec 01 §2, §9): which methods get a row and
 * which go behind 'Other socials' (only socials left) or 'More options'. With
 * `loginMethodsAndOrder`, `primary` are the rows (first entry of a duplicate
 * kept, duplicates warned, more than 4 warned) and `overflow` goes behind the
 * button; otherwise `loginMethods` in web2-first or web3-first order. Either
 * way at most 5 rows (4 with a wallet overflow button) and at most 3 web2
 * rows; one row is kept for the overflow button when anything overflows.
 */
export function landingLayout(input: LandingLayoutInput): LandingLayout {
  const warn = input.warn ?? ((message: string) => console.warn(message))
  const available = new Set(input.available)
  let primary: LoginMethod[]
  let overflow: LoginMethod[]
  if (input.order) {
    primary = dedupe(input.order.primary, warn, 'loginMethodsAndOrder.primary')
    if (primary.length > LANDING_PRIMARY_WARN)
      warn(
        `Latchkey: loginMethodsAndOrder.primary has ${primary.length} methods; more than ${LANDING_PRIMARY_WARN} may not fit.`,
      )
    overflow = dedupe(input.order.overflow ?? [], warn, 'loginMethodsAndOrder.overflow').filter(
      (method) => !primary.includes(method),
    )
  } else {
    const methods = dedupe(input.methods, warn, 'loginMethods')
    const web3 = methods.filter((m) => WEB3_METHODS.has(m))
    const web2 = methods.filter((m) => !WEB3_METHODS.has(m))
    primary = input.groupPriority === 'web3-first' ? [...web3, ...web2] : [...web2, ...web3]
    overflow = []
  }
  primary = primary.filter((m) => available.has(m))
  overflow = overflow.filter((m) => available.has(m))

  const maxRows = input.walletOverflow ? LANDING_MAX_ROWS - 1 : LANDING_MAX_ROWS
  const rows: LoginMethod[] = []
  const spill: LoginMethod[] = []
  let web2Rows = 0
  for (const method of primary) {
    const isWeb2 = !WEB3_METHODS.has(method)
    if (rows.length < maxRows && !(isWeb2 && web2Rows >= LANDING_MAX_WEB2_ROWS)) {
      rows.push(method)
      if (isWeb2) web2Rows++
    } else spill.push(method)
  }
  const rest = [...spill, ...overflow]
  if (rest.length === 0) return { rows, overflow: null }
  // The overflow button takes a row of its own.
  while (rows.length >= maxRows) rest.unshift(rows.pop() as LoginMethod)
  return {
    rows,
    overflow: {
      label: rest.every((m) => SOCIAL_METHODS.has(m)) ? 'Other socials' : 'More options',
      methods: rest,
    },
  }
}
