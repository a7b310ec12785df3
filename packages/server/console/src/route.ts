// The console's screens, as a typed union kept in the address bar
// (/console/apps/ID/users/USER…), so reloads and links land on the same screen.

export type Route =
  | { screen: 'apps' }
  | { screen: 'app'; appId: string }
  | { screen: 'users'; appId: string }
  | { screen: 'user'; appId: string; userId: string }
  | { screen: 'events'; appId: string }
  | { screen: 'audit' }

/** Moves the console to another screen (and the address bar with it). */
export type Navigate = (route: Route) => void

const BASE = '/console'

export function routeFromPath(pathname: string): Route {
  const parts = pathname.slice(BASE.length).split('/').filter(Boolean).map(decodeURIComponent)
  const [apps, appId, users, userId] = parts
  if (apps === 'audit') return { screen: 'audit' }
  if (apps !== 'apps' || !appId) return { screen: 'apps' }
  if (users === 'events') return { screen: 'events', appId }
  if (users !== 'users') return { screen: 'app', appId }
  if (!userId) return { screen: 'users', appId }
  return { screen: 'user', appId, userId }
}

export function pathOf(route: Route): string {
  const app = (id: string) => `${BASE}/apps/${encodeURIComponent(id)}`
  switch (route.screen) {
    case 'apps':
      return BASE
    case 'app':
      return app(route.appId)
    case 'users':
      return `${app(route.appId)}/users`
    case 'user':
      return `${app(route.appId)}/users/${encodeURIComponent(route.userId)}`
    case 'events':
      return `${app(route.appId)}/events`
    case 'audit':
      return `${BASE}/audit`
  }
}
