import { isValidAppId, routes } from '@latchkey/protocol'
import { z } from 'zod'
import { ApiError } from '../errors.ts'
import { defineRoute, resolveApp } from '../http/route.ts'
import { createAltchaChallenge } from './altcha.ts'
import { captchaProviderOf } from './provider.ts'

/**
 * GET the ALTCHA challenge the widget solves. The widget fetches
 * `challengeurl` with a plain GET (no custom headers, no preflight), so the
 * app id travels in the query; the Origin check is the same as for every
 * other route. Only apps that run ALTCHA get challenges.
 */
export const altchaChallengeRoute = defineRoute({
  method: 'get',
  path: routes.captchaAltchaChallenge,
  summary: 'A signed ALTCHA proof-of-work challenge for the app (docs/captcha.md)',
  tags: ['captcha'],
  auth: 'none',
  app: false,
  query: z.object({ app_id: z.string().refine(isValidAppId, 'Not an app id') }),
  response: z
    .object({
      parameters: z.record(z.string(), z.unknown()),
      signature: z.string().optional(),
    })
    .passthrough(),
  handler: async ({ c, services, query }) => {
    const app = await resolveApp(c, services, query.app_id)
    if (captchaProviderOf(app) !== 'altcha')
      throw new ApiError('NOT_FOUND', 'This app does not use ALTCHA')
    const challenge = await createAltchaChallenge(services, app)
    return { parameters: { ...challenge.parameters }, signature: challenge.signature }
  },
})

export const captchaRoutes = [altchaChallengeRoute]
