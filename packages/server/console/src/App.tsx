import { useCallback, useEffect, useState } from 'react'
import { type Admin, api, ConsoleApiError } from './api.ts'
import { type Navigate, pathOf, type Route, routeFromPath } from './route.ts'
import { AppSettingsScreen } from './screens/AppSettingsScreen.tsx'
import { AppsScreen } from './screens/AppsScreen.tsx'
import { AuditScreen } from './screens/AuditScreen.tsx'
import { EventsScreen } from './screens/EventsScreen.tsx'
import { SignInScreen } from './screens/SignInScreen.tsx'
import { UserScreen } from './screens/UserScreen.tsx'
import { UsersScreen } from './screens/UsersScreen.tsx'

/** Moves to another screen (and into the address bar's history). */
export function App() {
  const [admin, setAdmin] = useState<Admin | null | undefined>(undefined)
  const [route, setRoute] = useState<Route>(() => routeFromPath(location.pathname))

  useEffect(() => {
    api.me().then(
      ({ admin }) => setAdmin(admin),
      () => setAdmin(null),
    )
    const onPop = () => setRoute(routeFromPath(location.pathname))
    addEventListener('popstate', onPop)
    return () => removeEventListener('popstate', onPop)
  }, [])

  const navigate: Navigate = useCallback((next) => {
    history.pushState(null, '', pathOf(next))
    setRoute(next)
  }, [])
  // A call refused for want of a session (expired, revoked): back to sign-in.
  const onError = useCallback((error: Error) => {
    if (error instanceof ConsoleApiError && error.status === 401) setAdmin(null)
  }, [])

  if (admin === undefined) return <p className="muted page">Loading…</p>
  if (admin === null) return <SignInScreen onSignedIn={setAdmin} />
  return (
    <div className="page">
      <header className="bar">
        <button type="button" className="link brand" onClick={() => navigate({ screen: 'apps' })}>
          Latchkey console
        </button>
        <button type="button" className="link" onClick={() => navigate({ screen: 'audit' })}>
          Audit log
        </button>
        <span className="muted">Signed in as {admin.name}</span>
        <button type="button" onClick={() => api.logout().finally(() => setAdmin(null))}>
          Sign out
        </button>
      </header>
      <main>
        <Screen route={route} navigate={navigate} onError={onError} />
      </main>
    </div>
  )
}

function Screen(props: { route: Route; navigate: Navigate; onError: (error: Error) => void }) {
  const { route, navigate, onError } = props
  switch (route.screen) {
    case 'apps':
      return <AppsScreen navigate={navigate} onError={onError} />
    case 'app':
      return <AppSettingsScreen appId={route.appId} navigate={navigate} onError={onError} />
    case 'users':
      return <UsersScreen appId={route.appId} navigate={navigate} onError={onError} />
    case 'user':
      return (
        <UserScreen
          appId={route.appId}
          userId={route.userId}
          navigate={navigate}
          onError={onError}
        />
      )
    case 'events':
      return <EventsScreen appId={route.appId} navigate={navigate} onError={onError} />
    case 'audit':
      return <AuditScreen navigate={navigate} onError={onError} />
  }
}
