import type { ResolvedConfig } from '../../config.ts'
import { ShieldIcon } from './icons.tsx'

/**
 * The landing footer (spec 01 §2): the legal line when the app does not
 * require explicit terms acceptance (that case gets its own screen), and the
 * 'Protected by Latchkey' mark unless the host hides it.
 */
export function Footer({ config }: { config: ResolvedConfig }) {
  const { termsAndConditionsUrl: terms, privacyPolicyUrl: privacy } = config
  const showLegal = !config.requireUsersAcceptTerms && Boolean(terms || privacy)
  if (!showLegal && !config.showLatchkeyBranding) return null
  return (
    <footer className="lk-footer">
      {showLegal && (
        <p className="lk-legal">
          By logging in I agree to the{' '}
          {terms && (
            <a href={terms} target="_blank" rel="noopener noreferrer">
              Terms
            </a>
          )}
          {terms && privacy && ' and '}
          {privacy && (
            <a href={privacy} target="_blank" rel="noopener noreferrer">
              Privacy Policy
            </a>
          )}
        </p>
      )}
      {config.showLatchkeyBranding && (
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
