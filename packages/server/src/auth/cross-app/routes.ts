import {
  crossAppAuthenticateResponseSchema,
  crossAppAuthorizeResponseSchema,
  crossAppConnectionsResponseSchema,
  crossAppDetailsSchema,
  crossAppRequesterResponseSchema,
  crossAppTransactGrantSchema,
  crossAppTransactVerifyResponseSchema,
  routes,
  userSchema,
} from '@latchkey/protocol'
import { z } from 'zod'
import { defineRoute } from '../../http/route.ts'
import {
  crossAppAuthenticateRequestSchema,
  crossAppAuthorizeRequestSchema,
  crossAppLinkRequestSchema,
  crossAppRequesterRequestSchema,
  crossAppTransactVerifyRequestSchema,
} from './schema.ts'
import {
  authenticateWithCrossApp,
  authorizeCrossApp,
  crossAppConnections,
  crossAppDetails,
  crossAppRequester,
  linkCrossApp,
  verifyCrossAppTransact,
} from './service.ts'

// Cross-app (spec 03 §7; docs/cross-app.md). The details route names the
// provider in its path and is asked by the requester's page: the request's
// app (header, checked against the Origin) is the requester.
export const crossAppDetailsRoute = defineRoute({
  method: 'get',
  path: routes.crossAppDetails(':provider_app_id'),
  summary: 'A provider app’s public cross-app details (name, logo, its page)',
  tags: ['cross-app'],
  auth: 'none',
  response: crossAppDetailsSchema,
  handler: ({ c, services }) => crossAppDetails(services, c.req.param('provider_app_id') ?? ''),
})

export const crossAppConnectionsRoute = defineRoute({
  method: 'get',
  path: routes.crossAppConnections(':app_id'),
  summary: 'The signed-in user’s cross-app connections',
  tags: ['cross-app'],
  auth: 'user',
  response: crossAppConnectionsResponseSchema,
  handler: ({ services, app, auth }) => crossAppConnections(services, app, auth.userId),
})

export const crossAppRequesterRoute = defineRoute({
  method: 'post',
  path: routes.crossAppRequester,
  summary: 'Provider page: the requester app asking for the signed-in user’s account',
  tags: ['cross-app'],
  auth: 'user',
  body: crossAppRequesterRequestSchema,
  response: crossAppRequesterResponseSchema,
  handler: ({ services, app, body }) => crossAppRequester(services, app, body),
})

export const crossAppAuthorizeRoute = defineRoute({
  method: 'post',
  path: routes.crossAppAuthorize,
  summary: 'Provider page: the signed-in user accepts; a single-use code for the requester',
  tags: ['cross-app'],
  auth: 'user',
  body: crossAppAuthorizeRequestSchema,
  response: crossAppAuthorizeResponseSchema,
  handler: ({ services, app, auth, body }) => authorizeCrossApp(services, app, auth.userId, body),
})

export const crossAppAuthenticateRoute = defineRoute({
  method: 'post',
  path: routes.crossAppAuthenticate,
  summary: 'Requester: log in or sign up with a provider app’s code (PKCE)',
  tags: ['cross-app'],
  auth: 'none',
  startsSession: true,
  body: crossAppAuthenticateRequestSchema,
  response: crossAppAuthenticateResponseSchema,
  handler: ({ c, services, app, body }) =>
    authenticateWithCrossApp(services, app, body, c.req.header('origin')),
})

export const crossAppLinkRoute = defineRoute({
  method: 'post',
  path: routes.crossAppLink,
  summary: 'Requester: link a provider app’s account to the signed-in user',
  tags: ['cross-app'],
  auth: 'user',
  body: crossAppLinkRequestSchema,
  response: z.object({ user: userSchema, cross_app: crossAppTransactGrantSchema }),
  handler: ({ c, services, app, auth, body }) =>
    linkCrossApp(services, app, auth.userId, body, c.req.header('origin')),
})

export const crossAppTransactVerifyRoute = defineRoute({
  method: 'post',
  path: routes.crossAppTransactVerify,
  summary: 'Provider page: checks a requester’s transact token for the signed-in user',
  tags: ['cross-app'],
  auth: 'user',
  body: crossAppTransactVerifyRequestSchema,
  response: crossAppTransactVerifyResponseSchema,
  handler: ({ services, app, auth, body }) =>
    verifyCrossAppTransact(services, app, auth.userId, body),
})

export const crossAppRoutes = [
  crossAppDetailsRoute,
  crossAppConnectionsRoute,
  crossAppRequesterRoute,
  crossAppAuthorizeRoute,
  crossAppAuthenticateRoute,
  crossAppLinkRoute,
  crossAppTransactVerifyRoute,
]
