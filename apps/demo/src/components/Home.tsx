import { useLatchkey } from '@latchkey/react'
import { LoadingState } from './LoadingState.tsx'
import { LoginCard } from './LoginCard.tsx'
import { UserPanel } from './UserPanel.tsx'

/** Picks the panel for the session: loading, logged out, or the user's. */
export function Home() {
  const { ready, authenticated, user } = useLatchkey()
  if (!ready) return <LoadingState />
  if (!authenticated || !user) return <LoginCard />
  return <UserPanel user={user} />
}
