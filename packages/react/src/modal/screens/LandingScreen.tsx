import type { LoginMethod } from '@latchkey/core'
import { DEFAULT_LANDING_HEADER } from '@latchkey/protocol/constants'
import type { ErrorCode } from '@latchkey/protocol/errors'
import type { ReactNode } from 'react'
import type { ResolvedConfig } from '../../config.ts'
import { EmailForm } from '../components/EmailForm.tsx'
import { Footer } from '../components/Footer.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'

export interface LandingScreenProps {
  config: ResolvedConfig
  /** The method this browser last logged in with, for the 'Recent' chip. */
  recentMethod: LoginMethod | null
  email: {
    onSubmit(email: string): void
    sending: boolean
    error: ErrorCode | null
    onEdit(): void
    defaultValue?: string
  }
}

/**
 * The landing screen of spec 01 §2: header (default 'Log in or sign up'),
 * optional logo, login message (already cut to 100 characters), one row per
 * login method with a 'Recent' chip, and the legal / branding footer.
 */
export function LandingScreen({ config, recentMethod, email }: LandingScreenProps) {
  const rows: Partial<Record<LoginMethod, ReactNode>> = {
    email: (
      <EmailForm
        key="email"
        onSubmit={email.onSubmit}
        submitting={email.sending}
        error={email.error}
        onEdit={email.onEdit}
        defaultValue={email.defaultValue}
        disablePlusEmails={config.disablePlusEmails}
        recent={recentMethod === 'email'}
      />
    ),
  }
  return (
    <ScreenLayout
      title={config.landingHeader ?? DEFAULT_LANDING_HEADER}
      subtitle={config.loginMessage}
      media={<Logo logo={config.logo} appName={config.appName} />}
      footer={<Footer config={config} />}
    >
      {config.loginMethods.map((method) => rows[method])}
    </ScreenLayout>
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
