import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { demoBuildFor } from './demo-build.ts'

// Pieces of the browser tests' global setup (global-setup.ts).

/** Every code the dev mailbox (a table) and the dev outbox (process memory) delivered in the run. */
export async function deliveredCodes(
  server: import('@latchkey/server').LatchkeyServer,
): Promise<string[]> {
  const mails = await server.db.selectFrom('dev_mailbox').select('text').execute()
  const { sms } = server.services
  const texts = 'list' in sms && typeof sms.list === 'function' ? sms.list(undefined, 500) : []
  return [
    ...mails.map((m) => /\b(\d{6})\b/.exec(m.text)?.[1]),
    ...(texts as Array<{ code: string | null }>).map((t) => t.code),
  ].filter((code): code is string => Boolean(code))
}

/**
 * The demo as a user's browser gets it from a host: built (one request per
 * chunk, not one per source module as Vite's dev server serves it; the build
 * is cached until its sources change, ./demo-build.ts) and served by Vite's
 * preview server, talking to the server at `apiUrl`.
 */
export async function serveDemo(root: string, options: { apiUrl: string; appId: string }) {
  const { preview } = await import('vite')
  const demoRoot = join(root, 'apps/demo')
  const configFile = join(demoRoot, 'vite.config.ts')
  const outDir = await demoBuildFor(root, options)
  const server = await preview({
    root: demoRoot,
    configFile,
    logLevel: 'error',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
  })
  return {
    httpServer: server.httpServer,
    close: async () => {
      await server.close()
      await rm(outDir, { recursive: true, force: true })
    },
  }
}
