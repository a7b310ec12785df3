/**
 * The routes a page calls before the user does anything: the app's config,
 * the session's refresh and logout, the user, analytics and the enclave page.
 * Apart from `routes` (routes.ts spreads them in), so an SDK's first load can
 * import these six without the whole table.
 */
export const sessionRoutes = {
  appConfig: (appId: string) => `/api/v1/apps/${appId}`,
  sessionRefresh: '/api/v1/sessions',
  sessionLogout: '/api/v1/sessions/logout',
  usersMe: '/api/v1/users/me',
  analyticsEvents: '/api/v1/analytics_events',
  enclavePage: (appId: string) => `/apps/${appId}/embedded-wallets`,
} as const
