import { useGuestAccount, useLogin } from '@latchkey/react'
import { useState } from 'react'
import { ExternalWallets } from './ExternalWallets.tsx'

export function LoginCard() {
  const { login } = useLogin()
  const { createGuestAccount } = useGuestAccount()
  const [guestError, setGuestError] = useState<string | null>(null)
  return (
    <section className="card card-center hero" aria-labelledby="login-title">
      <span className="hero-badge">Self-hosted auth</span>
      <h1 id="login-title" className="hero-title">
        Log in to the Latchkey demo
      </h1>
      <p className="muted hero-text">
        Email and SMS codes, social logins, Telegram, Farcaster, Ethereum and Solana wallets and
        guest accounts, with embedded Ethereum and Solana wallets. Everything runs against your own
        Latchkey server.
      </p>
      <button type="button" className="button button-primary" onClick={() => login()}>
        Log in
      </button>
      <button
        type="button"
        className="button button-secondary"
        onClick={() => {
          setGuestError(null)
          createGuestAccount().catch((e: unknown) =>
            setGuestError(e instanceof Error ? e.message : String(e)),
          )
        }}
      >
        Continue as guest
      </button>
      {guestError && (
        <p className="error" role="alert">
          {guestError}
        </p>
      )}
      <ExternalWallets />
    </section>
  )
}
