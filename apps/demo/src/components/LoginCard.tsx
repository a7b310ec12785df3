import { useLogin } from '@latchkey/react'

export function LoginCard() {
  const { login } = useLogin()
  return (
    <section className="card card-center hero" aria-labelledby="login-title">
      <span className="hero-badge">Self-hosted auth</span>
      <h1 id="login-title" className="hero-title">
        Log in to the Latchkey demo
      </h1>
      <p className="muted hero-text">
        Email codes today; social logins, passkeys and embedded wallets next. Everything runs
        against your own Latchkey server.
      </p>
      <button type="button" className="button button-primary" onClick={() => login()}>
        Log in
      </button>
    </section>
  )
}
