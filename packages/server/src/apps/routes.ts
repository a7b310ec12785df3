import { appConfigSchema, routes } from '@latchkey/protocol'
import { defineRoute } from '../http/route.ts'
import { toAppConfig } from './service.ts'

export const appConfigRoute = defineRoute({
  method: 'get',
  path: routes.appConfig(':app_id'),
  summary: 'Public configuration of an app (login methods, branding, legal)',
  tags: ['apps'],
  auth: 'none',
  response: appConfigSchema,
  handler: async ({ app, services }) => toAppConfig(app, services.config.funding),
})
