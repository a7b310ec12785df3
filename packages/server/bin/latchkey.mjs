#!/usr/bin/env node
// The `latchkey` command. Installed from the registry, the package holds the
// compiled CLI (dist/cli.js) and plain Node runs it. In the monorepo (src/ is
// there, dist/ may not be built) it runs the TypeScript CLI through tsx, with
// the workspace packages resolved to their sources (the `latchkey-source`
// export condition), re-running Node with those flags when they are missing.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { constants } from 'node:os'
import { fileURLToPath } from 'node:url'

const SOURCE_CONDITION = 'latchkey-source'
const sourceCli = fileURLToPath(new URL('../src/cli.ts', import.meta.url))

if (!existsSync(sourceCli)) {
  const { runCli } = await import('../dist/cli.js')
  process.exitCode = await runCli(process.argv.slice(2))
} else if (process.execArgv.includes(`--conditions=${SOURCE_CONDITION}`)) {
  // Already running with the condition (and tsx, which the caller imported with it).
  const { runCli } = await import('../src/cli.ts')
  process.exitCode = await runCli(process.argv.slice(2))
} else {
  // tsx is a devDependency of the monorepo: found from here, whatever the caller's folder.
  const tsx = import.meta.resolve('tsx')
  const child = spawn(
    process.execPath,
    [
      ...process.execArgv,
      `--conditions=${SOURCE_CONDITION}`,
      '--import',
      tsx,
      fileURLToPath(import.meta.url),
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit' },
  )
  // `serve` stops on SIGINT / SIGTERM: pass them on, and leave with the child's status.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? 128 + (constants.signals[signal] ?? 0)
  })
}
