// The `appearance` and `legal` parts of `LatchkeyConfig` (config.ts).
import type { WalletChainType } from '@latchkey/core/external'
import type { ReactElement } from 'react'

/** `appearance` of the host-supplied configuration (spec 01 §3). */
export interface LatchkeyAppearance {
  /** `palette.colorScheme` of the spec. Default `'light'`. */
  theme?: 'light' | 'dark'
  /** A CSS colour; overrides the server's accent colour. */
  accentColor?: string
  /** A URL or an element, shown on the landing screen (max 180×90). */
  logo?: string | ReactElement
  /** Replaces the default landing header 'Log in or sign up'. */
  landingHeader?: string
  /** A short line under the header; cut to 100 characters. */
  loginMessage?: string
  /** The 'Protected by Latchkey' footer. Default `true`. */
  showLatchkeyBranding?: boolean
  /**
   * Email, SMS and socials before wallets (default), or wallets first: the
   * wallet list's wallets as rows of the landing screen. Forced to
   * web2-first when wallet login is off, and to web3-first when no email,
   * SMS or social login is on (spec 01 §5).
   */
  loginGroupPriority?: 'web2-first' | 'web3-first'
  /** Email and phone become buttons that open their input, instead of inputs on the landing screen. */
  hideDirectWeb2Inputs?: boolean
  /**
   * The wallet list, in order: wallet slugs (`metamask`, `coinbase_wallet`,
   * `rainbow`, `phantom`, `wallet_connect`…) and `detected_wallets` (also
   * `detected_ethereum_wallets` / `detected_solana_wallets`). Default:
   * detected wallets, metamask, coinbase_wallet, rainbow, wallet_connect.
   */
  walletList?: string[]
  /** Which external wallets the lists offer. Default `'ethereum-only'`. */
  walletChainType?: WalletChainType
}

/** `legal` of the host-supplied configuration (spec 01 §3). */
export interface LatchkeyLegal {
  termsAndConditionsUrl?: string
  privacyPolicyUrl?: string
  requireUsersAcceptTerms?: boolean
  /**
   * Show the landing footer (the legal line and 'Protected by') even when
   * users must accept the terms on a screen of their own; a missing terms or
   * privacy URL is then plain text. Default false.
   */
  alwaysShowFooter?: boolean
}
