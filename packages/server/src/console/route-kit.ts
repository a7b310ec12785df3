import { z } from 'zod'
import { getAppById } from '../apps/service.ts'
import { ApiError } from '../errors.ts'
import type { Services } from '../http/context.ts'
import { defineRoute, type RouteDefinition } from '../http/route.ts'
import { isStoreUnavailable } from '../http/unavailable.ts'
import { CONSOLE_API } from './guard.ts'

// What every console route file shares (routes.ts, user-routes.ts,
// log-routes.ts): the route options, paths, and the app a path names.

export const APP = `${CONSOLE_API}/apps/:app_id`
export const USER = `${APP}/users/:user_id`
export const noBody = z.strictObject({})
export const anything = z.record(z.string(), z.unknown())
/** A page cursor as the console's lists hand them out. */
export const cursorSchema = z.string().min(1).max(512)

/**
 * A console route: tagged `console`, no bearer token (consoleGuard checks
 * the session) and no caller app (`app: false`).
 */
export function consoleRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(definition: Omit<RouteDefinition<B, Q, R>, 'tags' | 'auth' | 'app'>): RouteDefinition<B, Q, R> {
  return defineRoute<B, Q, R>({ ...definition, tags: ['console'], auth: 'none', app: false })
}

/** The app of the path, or 404 APP_NOT_FOUND. */
export async function appOf(services: Services, appId: string | undefined) {
  const app = appId ? await getAppById(services.db, appId) : undefined
  if (!app) throw new ApiError('APP_NOT_FOUND')
  return app
}

/** A setting or app the shared validation refuses: 400 with its own message (as the CLI prints it). */
export function asInvalidPayload(error: unknown): never {
  if (error instanceof ApiError || isStoreUnavailable(error)) throw error
  throw new ApiError('INVALID_PAYLOAD', (error as Error).message)
}
