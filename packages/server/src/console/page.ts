import { readFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Context, Hono } from 'hono'
import type { HonoEnv, Services } from '../http/context.ts'
import { registerRoutes } from '../http/route.ts'
import { CONSOLE_API, consoleGuard } from './guard.ts'
import { CONSOLE_ROUTES } from './routes.ts'

// The admin console at /console (docs/console.md): a Vite-built React page
// (packages/server/console/, `npm run build:console`) served from this
// server's own origin, and its API under /console/api.

/**
 * Where the built console is: dist/assets/console/ of the server package,
 * both when the compiled server runs (dist/console/page.js) and from source
 * (src/console/page.ts). Under assets/, which the packages build keeps.
 */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(
  new URL(
    import.meta.url.endsWith('.ts') ? '../../dist/assets/console/' : '../assets/console/',
    import.meta.url,
  ),
)

/** Only same-origin scripts, styles and calls; logos from https; never framed. */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
}

export interface ConsoleOptions {
  /** The built console (default {@link DEFAULT_CONSOLE_DIR}). */
  dir?: string
}

async function readBuilt(dir: string, file: string): Promise<Buffer | null> {
  try {
    return await readFile(join(dir, file))
  } catch {
    return null
  }
}

function notBuilt(c: Context<HonoEnv>) {
  c.header('Cache-Control', 'no-store')
  return c.json(
    {
      code: 'CONSOLE_UNAVAILABLE',
      message: 'The admin console is not built: run `npm run build:console`',
    },
    503,
  )
}

/**
 * Registers the console: its API behind {@link consoleGuard}, its built
 * assets at /console/assets/, and its page at /console and every other
 * /console path (the page routes itself).
 *
 * @example
 * registerConsole(app, services)
 */
export function registerConsole(
  hono: Hono<HonoEnv>,
  services: Services,
  options: ConsoleOptions = {},
): void {
  const dir = options.dir ?? DEFAULT_CONSOLE_DIR
  hono.use(`${CONSOLE_API}/*`, consoleGuard(services))
  registerRoutes(hono, CONSOLE_ROUTES, services)
  hono.get('/console/assets/:file{[A-Za-z0-9._-]+}', async (c) => {
    const file = c.req.param('file')
    const type = TYPES[extname(file)]
    const body = type ? await readBuilt(join(dir, 'assets'), file) : null
    if (!body) return c.json({ code: 'NOT_FOUND', message: 'Not found' }, 404)
    // Vite names each asset by its content hash.
    c.header('Cache-Control', 'public, max-age=31536000, immutable')
    c.header('Content-Type', type as string)
    return c.body(new Uint8Array(body))
  })
  const page = async (c: Context<HonoEnv>) => {
    const html = await readBuilt(dir, 'index.html')
    if (!html) return notBuilt(c)
    c.header('Content-Security-Policy', CONSOLE_CSP)
    c.header('Cache-Control', 'no-store')
    return c.html(html.toString('utf8'))
  }
  hono.get('/console', page)
  hono.get('/console/*', async (c, next) =>
    c.req.path.startsWith(`${CONSOLE_API}/`) ? next() : page(c),
  )
}
