/**
 * HTTP paths of the Latchkey API, relative to the server's base URL. Plain
 * strings (no zod) so the browser client can import them for free.
 */
export const routes = {
  appConfig: (appId: string) => `/api/v1/apps/${appId}`,
  jwks: (appId: string) => `/api/v1/apps/${appId}/jwks.json`,
  emailInit: '/api/v1/passwordless/init',
  emailAuthenticate: '/api/v1/passwordless/authenticate',
  emailLink: '/api/v1/passwordless/link',
  emailUnlink: '/api/v1/passwordless/unlink',
  emailUpdate: '/api/v1/passwordless/update',
  sessionRefresh: '/api/v1/sessions',
  sessionLogout: '/api/v1/sessions/logout',
  usersMe: '/api/v1/users/me',
  analyticsEvents: '/api/v1/analytics_events',
  openapi: '/api/v1/openapi.json',
  devMailbox: '/api/v1/dev/mailbox',
  embeddedWalletsCreate: '/api/v1/embedded_wallets',
  embeddedWalletsAdd: '/api/v1/embedded_wallets/add',
  embeddedWalletsAuthShare: '/api/v1/embedded_wallets/auth_share',
  embeddedWalletsRecovery: '/api/v1/embedded_wallets/recovery',
  embeddedWalletsSetRecovery: '/api/v1/embedded_wallets/recovery/set',
  recoveryOAuthInit: '/api/v1/recovery/oauth/init',
  recoveryOAuthInitIcloud: '/api/v1/recovery/oauth/init_icloud',
  recoveryOAuthAuthenticate: '/api/v1/recovery/oauth/authenticate',
  enclavePage: (appId: string) => `/apps/${appId}/embedded-wallets`,
} as const
