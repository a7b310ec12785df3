import type { ReactNode } from 'react'
import type { ResolvedConfig } from '../../config.ts'
import { ShieldIcon } from './icons.tsx'

type FooterConfig = Pick<
  ResolvedConfig,
  | 'termsAndConditionsUrl'
  | 'privacyPolicyUrl'
  | 'requireUsersAcceptTerms'
  | 'alwaysShowFooter'
  | 'showLatchkeyBranding'
>

/**
 * What the landing footer shows (spec 01 §2): the legal line and the
 * 'Protected by' mark show when the app does not require terms acceptance
 * (that case gets a screen of its own), or when forced by
 * `legal.alwaysShowFooter`. Unforced, the legal line needs a terms or
 * privacy URL and names only what it links; forced, it always reads in full
 * and a part without a URL is plain text. `showLatchkeyBranding: false`
 * hides the mark either way.
 */
export function footerContent(config: FooterConfig): {
  legal: { terms: boolean; privacy: boolean } | null
  branding: boolean
} {
  const shown = !config.requireUsersAcceptTerms || config.alwaysShowFooter
  const terms = Boolean(config.termsAndConditionsUrl)
  const privacy = Boolean(config.privacyPolicyUrl)
  const legal = !shown
    ? null
    : config.alwaysShowFooter
      ? { terms: true, privacy: true }
      : terms || privacy
        ? { terms, privacy }
        : null
  return { legal, branding: shown && config.showLatchkeyBranding }
}

function LegalPart({ url, children }: { url: string | null; children: string }): ReactNode {
  if (!url) return children
  return (
    <a href={url} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  )
}

/**
 * The landing footer (spec 01 §2), as `footerContent` decides: the legal line
 * 'By logging in I agree to the Terms / Privacy Policy'
 * (each part a link when its URL is set) and 'Protected by Latchkey'.
 */
export function Footer({ config }: { config: FooterConfig }) {
  const { legal, branding } = footerContent(config)
  if (!legal && !branding) return null
  return (
    <footer className="lk-footer">
      {legal && (
        <p className="lk-legal">
          By logging in I agree to the{' '}
          {legal.terms && <LegalPart url={config.termsAndConditionsUrl}>Terms</LegalPart>}
          {legal.terms && legal.privacy && ' / '}
          {legal.privacy && <LegalPart url={config.privacyPolicyUrl}>Privacy Policy</LegalPart>}
        </p>
      )}
      {branding && (
        <span className="lk-protected">
          <ShieldIcon />
          <span>
            Protected by <strong>Latchkey</strong>
          </span>
        </span>
      )}
    </footer>
  )
}
