import { useCrossAppAccounts, useLatchkey } from '@latchkey/react'
import { useState } from 'react'

/** The message 'Sign with …' asks the provider's wallet to sign. */
export const CROSS_APP_DEMO_MESSAGE = 'Hello from the requester app'

/**
 * Cross-app (docs/cross-app.md), shown when the page has `?crossApp=<provider
 * app id>`: 'Log in with provider app' while logged out (the hook's login, in
 * the login modal's flow; what it resolved with shows below); for a user with that
 * provider's account, its wallet address and 'Sign with provider wallet',
 * which asks the provider app's page (a popup) for a signature.
 */
export function CrossAppPanel({ providerAppId }: { providerAppId: string }) {
  const { authenticated, user } = useLatchkey()
  const { loginWithCrossAppAccount, signMessage } = useCrossAppAccounts()
  const [signature, setSignature] = useState<string | null>(null)
  // What `loginWithCrossAppAccount` resolved with: only once the modal closed after
  // the app's post-login steps (terms, wallet creation).
  const [loggedIn, setLoggedIn] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const account = user?.linkedAccounts.find(
    (a) => a.type === 'cross_app' && a.providerApp.id === providerAppId,
  )
  const address =
    account?.type === 'cross_app'
      ? account.embeddedWallets.find((w) => w.chainType === 'ethereum')?.address
      : undefined
  const run = (action: () => Promise<void>) => () => {
    setError(null)
    action().catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
  }
  return (
    <div className="section" data-testid="cross-app-panel">
      <h3 className="section-title">Cross-app</h3>
      {!authenticated && (
        <div className="actions">
          <button
            type="button"
            className="button"
            onClick={run(async () => {
              const result = await loginWithCrossAppAccount({ appId: providerAppId })
              setLoggedIn(`${result.isNewUser ? 'New' : 'Returning'} user ${result.user.id}`)
            })}
          >
            Log in with provider app
          </button>
        </div>
      )}
      {loggedIn && (
        <p className="muted" data-testid="cross-app-login-result">
          Logged in with provider app: {loggedIn}
        </p>
      )}
      {address && (
        <>
          <p className="muted">
            Provider wallet: <code data-testid="cross-app-address">{address}</code>
          </p>
          <div className="actions">
            <button
              type="button"
              className="button button-secondary"
              onClick={run(async () => {
                setSignature(await signMessage(CROSS_APP_DEMO_MESSAGE, { address }))
              })}
            >
              Sign with provider wallet
            </button>
          </div>
        </>
      )}
      {signature && (
        <p className="muted">
          Signature: <code data-testid="cross-app-signature">{signature}</code>
        </p>
      )}
      {error && (
        <p className="error" role="alert" data-testid="cross-app-error">
          {error}
        </p>
      )}
    </div>
  )
}
