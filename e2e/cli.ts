import { runCli } from '@latchkey/server'

/**
 * Runs `latchkey …` in this test process, on the database of `dataDir` (or
 * `databaseUrl`), and resolves with its output; rejects with what it wrote
 * to stderr when it exits non-zero. In-process rather than through
 * packages/server/bin/latchkey.mjs: each child process compiled the server's
 * TypeScript again through tsx (about 3.4 s of CPU a command), while here the
 * worker's module graph is reused. The bin itself is tested by the server's
 * CLI tests and the packaging tests.
 */
export async function latchkeyCli(
  options: { dataDir: string; databaseUrl?: string | null },
  ...argv: string[]
): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env }
  delete env.LATCHKEY_DATA_DIR
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl
  else delete env.DATABASE_URL
  const out: string[] = []
  const err: string[] = []
  const code = await runCli([...argv, '--data', options.dataDir], {
    env,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  })
  if (code !== 0) throw new Error(`latchkey ${argv.join(' ')} exited ${code}:\n${err.join('\n')}`)
  return `${out.join('\n')}\n`
}
