import { useLatchkey } from '@latchkey/react'
import { CrossAppPanel } from './CrossAppPanel.tsx'
import { LoadingState } from './LoadingState.tsx'
import { LoginCard } from './LoginCard.tsx'
import { UserPanel } from './UserPanel.tsx'
import { WalletStandardPanel } from './WalletStandardPanel.tsx'

/** Picks the panel for the session: loading, logged out, or the user's. */
export function Home() {
  const { ready, authenticated, user } = useLatchkey()
  if (!ready) return <LoadingState />
  // `?crossApp=<provider app id>`: the cross-app panel (docs/cross-app.md) above the rest.
  const crossApp = new URLSearchParams(globalThis.location?.search).get('crossApp')
  const panel = crossApp ? <CrossAppPanel providerAppId={crossApp} /> : null
  if (!authenticated || !user)
    return (
      <>
        {panel}
        <LoginCard />
        <WalletStandardPanel />
      </>
    )
  return (
    <>
      {panel}
      <UserPanel user={user} />
      <WalletStandardPanel />
    </>
  )
}
