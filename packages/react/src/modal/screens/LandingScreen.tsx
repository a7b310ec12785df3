import type { CrossAppPopup, LoginMethod } from '@latchkey/core'
import type { WalletOption } from '@latchkey/core/external'
import { DEFAULT_LANDING_HEADER } from '@latchkey/protocol/constants'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { Fragment, type ReactNode, useEffect, useMemo, useState } from 'react'
import type { ResolvedConfig } from '../../config.ts'
import { EmailForm } from '../components/EmailForm.tsx'
import { Footer } from '../components/Footer.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { CrossAppLandingButtons } from '../cross-app/CrossAppLandingButtons.tsx'
import { CONTINUE_WITH_A_WALLET, type LandingLayout, landingLayout } from '../landing.ts'
import { WalletIcon } from '../methods/wallet/WalletList.tsx'

/** The app's wallets, for the landing screen's wallet rows (`landingShowsWallets`). */
export interface LandingWallets {
  /** The app's wallet list, detected wallets included; null while its code loads. */
  options: WalletOption[] | null
  /** The wallets an order's wallet entry stands for ('detected_wallets' → each detected one). */
  expand(entry: string): WalletOption[]
  /** The wallet this browser last connected. */
  recentId: string | null
}

export interface LandingScreenProps {
  config: ResolvedConfig
  /** The method this browser last logged in with, for the 'Recent' chip. */
  recentMethod: LoginMethod | null
  email: {
    onSubmit(email: string): void
    sending: boolean
    error: ErrorCode | null
    /** When a refused send may be tried again (a 429's `retry_after`), for a countdown. */
    retryAt?: number
    onEdit(): void
    defaultValue?: string
  }
  /** The phone input, when SMS login is drawn inline (a node the flow renders). */
  phoneInput?: ReactNode
  /** A method button (OAuth, Telegram, email or SMS when inputs are hidden) was pressed. */
  onMethod?(method: LoginMethod): void
  /** The overflow button ('Other socials' / 'More options') was pressed. */
  onOverflow?(methods: LoginMethod[], label: string): void
  /** When the landing screen draws wallets of its own. */
  wallets?: LandingWallets
  /** A wallet's own row was pressed (its id). */
  onWallet?(walletId: string): void
  /** The wallet button was pressed: the wallets it lists, null for the app's whole list. */
  onWalletList?(wallets: string[] | null): void
  /** A `latchkey:{appId}` row was pressed, with the popup its click opened (docs/cross-app.md). */
  onCrossApp?(appId: string, popup: CrossAppPopup | null): void
}

/**
 * Spec 01 §2 "an optional passkey login button": passkey login sits under the
 * rows as 'Log in with a passkey', unless the host placed 'passkey' in
 * `loginMethodsAndOrder` or passkeys may create accounts — then it is a
 * method row like any other ('Continue with a passkey'), which opens the
 * choice between a new account and an existing passkey.
 */
export function passkeyLoginButton(config: ResolvedConfig): boolean {
  return (
    config.loginMethods.includes('passkey') &&
    !config.passkeysForSignup &&
    config.loginMethodsAndOrder === null
  )
}

/** Spec 01 §2: an OAuth button stays disabled this long after a click. */
export const METHOD_BUTTON_COOLDOWN_MS = 2_000

/**
 * The landing screen of spec 01 §2: header (default 'Log in or sign up'),
 * optional logo, login message (already cut to 100 characters), the rows of
 * `landingLayout` (email and phone inputs inline unless
 * `hideDirectWeb2Inputs`, a button per other method), the overflow button,
 * a 'Recent' chip on the last method used, and the legal / branding footer.
 */
export function LandingScreen({
  config,
  recentMethod,
  email,
  phoneInput,
  onMethod,
  onOverflow,
  wallets,
  onWallet,
  onWalletList,
  onCrossApp,
}: LandingScreenProps) {
  const passkeyButton = passkeyLoginButton(config)
  const { layout, walletOptions } = useMemo(() => {
    const methods = passkeyButton
      ? config.loginMethods.filter((method) => method !== 'passkey')
      : config.loginMethods
    const walletOptions = new Map<string, WalletOption>()
    const known = (options: WalletOption[]) =>
      options.map((option) => {
        walletOptions.set(option.id, option)
        return option.id
      })
    const layout: LandingLayout = landingLayout({
      methods,
      order: config.loginMethodsAndOrder,
      groupPriority: config.loginGroupPriority,
      available: methods,
      wallets: wallets?.options ? known(wallets.options) : null,
      // Until the list loads, a wallet entry stands for no row.
      expandWallet: (entry) => known(wallets?.options ? wallets.expand(entry) : []),
    })
    return { layout, walletOptions }
  }, [
    config.loginMethods,
    config.loginMethodsAndOrder,
    config.loginGroupPriority,
    passkeyButton,
    wallets,
  ])
  const recentWalletRow =
    recentMethod === 'wallet' && layout.rows.some((entry) => entry === wallets?.recentId)
  const row = (entry: string): ReactNode => {
    if (entry === 'wallet' && layout.walletButton) {
      const { label, wallets: list } = layout.walletButton
      return (
        <MethodButton
          key="wallet"
          method="wallet"
          label={label}
          recent={recentMethod === 'wallet' && !recentWalletRow}
          onClick={() => (onWalletList ? onWalletList(list) : onMethod?.('wallet'))}
        />
      )
    }
    const option = walletOptions.get(entry)
    if (option)
      return (
        <button
          key={`wallet:${option.id}`}
          type="button"
          className="lk-option lk-wallet-row"
          data-wallet={option.id}
          aria-label={option.name}
          onClick={() => onWallet?.(option.id)}
        >
          <WalletIcon option={option} />
          <span className="lk-wallet-name">{option.name}</span>
          {recentMethod === 'wallet' && option.id === wallets?.recentId && (
            <span className="lk-chip">Recent</span>
          )}
        </button>
      )
    const method = entry as LoginMethod
    if (method === 'email' && !config.hideDirectWeb2Inputs)
      return (
        <EmailForm
          key="email"
          onSubmit={email.onSubmit}
          submitting={email.sending}
          error={email.error}
          retryAt={email.retryAt}
          onEdit={email.onEdit}
          defaultValue={email.defaultValue}
          disablePlusEmails={config.disablePlusEmails}
          recent={recentMethod === 'email'}
        />
      )
    if (method === 'sms' && !config.hideDirectWeb2Inputs && phoneInput)
      return <Fragment key="sms">{phoneInput}</Fragment>
    return (
      <MethodButton
        key={method}
        method={method}
        recent={recentMethod === method}
        onClick={() => onMethod?.(method)}
      />
    )
  }
  return (
    <ScreenLayout
      title={config.landingHeader ?? DEFAULT_LANDING_HEADER}
      subtitle={config.loginMessage}
      media={<Logo logo={config.logo} appName={config.appName} />}
      footer={<Footer config={config} />}
    >
      {layout.rows.map(row)}
      {config.crossAppProviders.length > 0 && onCrossApp && (
        <CrossAppLandingButtons
          providers={config.crossAppProviders}
          recent={recentMethod === 'cross_app'}
          onChoose={onCrossApp}
        />
      )}
      {layout.overflow && (
        <button
          type="button"
          className="lk-option"
          onClick={() =>
            layout.overflow && onOverflow?.(layout.overflow.methods, layout.overflow.label)
          }
        >
          <span>{layout.overflow.label}</span>
          {layout.overflow.methods.includes(recentMethod as LoginMethod) && (
            <span className="lk-chip">Recent</span>
          )}
        </button>
      )}
      {passkeyButton && (
        <button
          type="button"
          className="lk-link-btn lk-explainer-toggle"
          data-method="passkey"
          onClick={() => onMethod?.('passkey')}
        >
          Log in with a passkey
          {recentMethod === 'passkey' && <span className="lk-chip">Recent</span>}
        </button>
      )}
    </ScreenLayout>
  )
}

/** How a method's button reads: 'Continue with Google', 'Continue with email'. */
export function methodLabel(method: LoginMethod): string {
  if (method === 'wallet') return CONTINUE_WITH_A_WALLET
  return `Continue with ${METHOD_NAMES[method] ?? method}`
}

const METHOD_NAMES: Partial<Record<LoginMethod, string>> = {
  email: 'email',
  sms: 'SMS',
  google: 'Google',
  apple: 'Apple',
  discord: 'Discord',
  github: 'GitHub',
  linkedin: 'LinkedIn',
  spotify: 'Spotify',
  instagram: 'Instagram',
  twitter: 'Twitter',
  tiktok: 'TikTok',
  line: 'LINE',
  telegram: 'Telegram',
  farcaster: 'Farcaster',
  passkey: 'a passkey',
}

/** A login method's row button, disabled for 2 s after a click (a redirect is usually on its way). */
export function MethodButton({
  method,
  label,
  recent,
  onClick,
}: {
  method: LoginMethod
  /** Default: `methodLabel(method)`. */
  label?: string
  recent: boolean
  onClick(): void
}) {
  const [cooling, setCooling] = useState(false)
  useEffect(() => {
    if (!cooling) return
    const timer = setTimeout(() => setCooling(false), METHOD_BUTTON_COOLDOWN_MS)
    return () => clearTimeout(timer)
  }, [cooling])
  return (
    <button
      type="button"
      className="lk-option"
      disabled={cooling}
      data-method={method}
      onClick={() => {
        setCooling(true)
        onClick()
      }}
    >
      <span>{label ?? methodLabel(method)}</span>
      {recent && <span className="lk-chip">Recent</span>}
    </button>
  )
}

function Logo({ logo, appName }: { logo: ResolvedConfig['logo']; appName: string | null }) {
  if (!logo) return null
  return (
    <div className="lk-logo">
      {typeof logo === 'string' ? (
        <img src={logo} alt={appName ? `${appName} logo` : 'Logo'} />
      ) : (
        logo
      )}
    </div>
  )
}
