'use client'

import { useLatchkey } from '@latchkey/react'
import { useRouter } from 'next/navigation'
import { useEffect } from 'react'

/**
 * Log in and out in the browser. When the browser's session and what the
 * server rendered disagree (a login or logout here, or an access token the
 * client just refreshed), the server components render again.
 */
export function LoginButton({ serverUserId }: { serverUserId: string | null }) {
  const { ready, authenticated, user, login, logout } = useLatchkey()
  const router = useRouter()
  const clientUserId = authenticated ? (user?.id ?? null) : null
  useEffect(() => {
    if (ready && clientUserId !== serverUserId) router.refresh()
  }, [ready, clientUserId, serverUserId, router])

  if (!ready)
    return (
      <button type="button" data-testid="latchkey-status" disabled>
        Loading…
      </button>
    )
  return authenticated ? (
    <p data-testid="latchkey-status">
      Logged in in the browser as <code>{user?.id}</code>{' '}
      <button type="button" onClick={() => void logout()}>
        Log out
      </button>
    </p>
  ) : (
    <button type="button" data-testid="latchkey-status" onClick={() => login()}>
      Log in
    </button>
  )
}
