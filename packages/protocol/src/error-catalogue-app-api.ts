import type { ErrorCode } from './error-codes.ts'
import type { UserMessage } from './user-message.ts'

/**
 * The server-to-server API of app backends (the app secret; docs/server-api.md).
 * Not in the spec: no screen shows these, an app developer reads them.
 */
export const appApiErrorMessages = {
  APP_AUTH_REQUIRED: {
    title: 'App credentials are required',
    detail:
      'Send Authorization: Basic base64(appId:appSecret) and the latchkey-app-id header with the same app id.',
  },
  INVALID_APP_SECRET: {
    title: 'The app secret is not valid',
    detail: 'It is wrong, revoked, or belongs to another app (latchkey apps secret list).',
  },
  APP_SECRET_FROM_BROWSER: {
    title: 'App secrets are for servers only',
    detail:
      'This request came from a browser (it has an Origin header): call the API from your backend.',
  },
} satisfies Partial<Record<ErrorCode, UserMessage>>
