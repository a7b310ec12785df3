/**
 * @module
 * Commands the packaging test runs outside the repository: npm, npx, node,
 * with an environment that carries nothing of the test runner, of npm's
 * script of the repository or of a Latchkey setting of this machine (it does
 * keep the npm cache and registry settings), and their output kept for the
 * failure message.
 */
import { type ChildProcess, spawn } from 'node:child_process'

/** What a command run from a test runner or an npm script would leak into the app's commands. */
const LEAKS =
  /^(VITEST|TEST$|NODE_ENV$|MODE$|DEV$|PROD$|SSR$|BASE_URL$|PORT$|HOST$|INIT_CWD$|npm_package_|npm_lifecycle_|npm_config_local_prefix$|LATCHKEY_|DATABASE_URL$|SMTP_URL$|REDIS_URL$)/

/** This process's environment without {@link LEAKS}, plus `extra`. */
export function outsideEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !LEAKS.test(key)) env[key] = value
  return { ...env, ...extra }
}

export interface RunOptions {
  cwd: string
  env?: NodeJS.ProcessEnv
  /** Resolve with the output on a non-zero exit instead of failing. */
  allowFailure?: boolean
}

export interface RunResult {
  code: number | null
  stdout: string
  stderr: string
  seconds: number
}

/** Runs a command to its end; fails with its output when it exits non-zero. */
export function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? outsideEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.once('error', reject)
    child.once('close', (code) => {
      const result = { code, stdout, stderr, seconds: (performance.now() - started) / 1000 }
      if (code === 0 || options.allowFailure) resolve(result)
      else
        reject(
          new Error(
            `${command} ${args.join(' ')} (in ${options.cwd}) exited with ${code}\n${stdout}\n${stderr}`,
          ),
        )
    })
  })
}

/**
 * Resolves with the match of `pattern` on the first line of the child's
 * stdout that has it; fails if the child exits first (with what it printed).
 */
export function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let output = ''
    let errors = ''
    const onData = (chunk: Buffer) => {
      output += chunk
      const match = output.match(pattern)
      if (!match) return
      child.stdout?.off('data', onData)
      child.stderr?.off('data', onError)
      child.off('exit', onExit)
      resolve(match)
    }
    const onError = (chunk: Buffer) => {
      errors += chunk
    }
    const onExit = (code: number | null) =>
      reject(new Error(`exited with ${code} before printing ${pattern}:\n${output}\n${errors}`))
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onError)
    child.once('exit', onExit)
  })
}

/**
 * Stops a child spawned with `detached: true` and everything it started (npx,
 * its shell, the server): SIGTERM to its process group, then waits for it.
 */
export function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
    return Promise.resolve()
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  process.kill(-child.pid, 'SIGTERM')
  return exited
}
