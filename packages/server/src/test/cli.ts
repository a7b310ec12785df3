import { runCli } from '../cli.ts'

export interface CliRun {
  code: number
  out: string
  err: string
}

/**
 * Runs the CLI in process as if started in `cwd` with exactly `env` (nothing
 * from `process.env`, so a DATABASE_URL of the test run does not leak in).
 *
 * @example
 * const { code, out, err } = await runCliIn(project.path('apps/demo'), ['apps', 'list', '--json'])
 */
export async function runCliIn(
  cwd: string,
  argv: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<CliRun> {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, {
    cwd,
    env,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}
