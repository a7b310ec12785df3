import type { Context } from 'hono'
import { routePath } from 'hono/route'

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * The template of the route that answered (`/api/v1/apps/:app_id`), read
 * once the handler is done; 'unmatched' when none did (unknown paths, CORS
 * preflights answered by the middleware). Metrics label with it and the
 * access log writes it: never the raw URL, whose path holds ids and whose
 * query string carries OAuth codes and states.
 */
export function routeTemplate(c: Context): string {
  const path = routePath(c)
  return path === '' || path === '*' || path === '/*' ? 'unmatched' : path
}

/** The request's method, or 'other' for anything a scanner invents. */
export const methodLabel = (method: string): string => (METHODS.has(method) ? method : 'other')
