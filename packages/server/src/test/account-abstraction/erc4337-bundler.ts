// Pimlico's Alto ERC-4337 bundler as a child process, for tests against a
// local node. prool would do this too but needs Node 22; spawning the CLI is
// all it does anyway.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Address, Hex } from 'viem'
import { freePort } from '../chains.ts'

/** A running Alto: its JSON-RPC url (eth_sendUserOperation & co.) and how to stop it. */
export interface AltoBundler {
  bundlerUrl: string
  stop(): Promise<void>
}

export interface StartAltoParameters {
  /** The node Alto simulates against and submits bundles to. */
  rpcUrl: string
  entryPoints: readonly Address[]
  /** Funded key(s) that sign `handleOps` transactions. */
  executorPrivateKeys: readonly Hex[]
  /** Funded key that deploys Alto's simulation contracts through the deterministic deployer. */
  utilityPrivateKey: Hex
  /** How long to wait for Alto to answer before giving up; default 90 s (it takes ~3-8 s idle). */
  readyTimeoutMs?: number
}

/**
 * Alto is installed apart from the workspace, in tools/erc4337-bundler (its
 * OpenTelemetry pins would replace the server's); its CLI entry (`bin.alto`)
 * is next to the package's `esm/index.js`.
 */
const BUNDLER_TOOL = fileURLToPath(
  new URL('../../../../../tools/erc4337-bundler/', import.meta.url),
)
const ALTO_CLI = join(BUNDLER_TOOL, 'node_modules', '@pimlico', 'alto', 'esm', 'cli', 'alto.js')
/** Held (mkdir is atomic) by the one test worker that installs; the others wait for it to go. */
const INSTALL_LOCK = join(BUNDLER_TOOL, '.installing')

function npmCi(): Promise<void> {
  return new Promise((resolve, reject) => {
    const npm = spawn('npm', ['ci', '--no-audit', '--no-fund'], {
      cwd: BUNDLER_TOOL,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    npm.stderr?.on('data', (chunk) => {
      stderr = (stderr + String(chunk)).slice(-4_000)
    })
    npm.once('error', reject)
    npm.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm ci in ${BUNDLER_TOOL} failed: ${stderr}`)),
    )
  })
}

/** Every package tools/erc4337-bundler declares is in its node_modules. */
function toolsInstalled(): boolean {
  const manifest = JSON.parse(readFileSync(join(BUNDLER_TOOL, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>
  }
  return Object.keys(manifest.dependencies).every((name) =>
    existsSync(join(BUNDLER_TOOL, 'node_modules', name, 'package.json')),
  )
}

/**
 * Installs tools/erc4337-bundler from its lockfile when a package it declares
 * is missing (fresh clones, CI; a checkout whose tools changed), once across
 * test workers; returns Alto's CLI. Call it before loading contract artifacts.
 */
export async function ensureBundlerTools(): Promise<string> {
  if (toolsInstalled()) return ALTO_CLI
  let installer = false
  try {
    mkdirSync(INSTALL_LOCK)
    installer = true
  } catch {
    // another worker is installing
  }
  if (installer) {
    try {
      await npmCi()
    } finally {
      rmSync(INSTALL_LOCK, { recursive: true, force: true })
    }
  } else {
    const deadline = Date.now() + 300_000
    while (existsSync(INSTALL_LOCK)) {
      if (Date.now() > deadline)
        throw new Error(`waited 5 min for ${INSTALL_LOCK} to go (left by a crashed install?)`)
      await new Promise((r) => setTimeout(r, 250))
    }
  }
  if (!toolsInstalled()) throw new Error(`tools are not installed in ${BUNDLER_TOOL}`)
  return ALTO_CLI
}

async function supportedEntryPoints(url: string): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_supportedEntryPoints', params: [] }),
  })
  if (!response.ok) return undefined
  const body = (await response.json()) as { result?: unknown }
  return body.result
}

/**
 * Starts Alto on a free port and resolves once `eth_supportedEntryPoints`
 * answers with the entry points it was given.
 *
 * Alto runs unsafe (`--safe-mode false`): ERC-7562 tracing needs
 * `debug_traceCall` with Geth's JS tracer, which Anvil lacks.
 *
 * @example
 * const alto = await startAlto({ rpcUrl, entryPoints: [entryPoint07Address], executorPrivateKeys: [k1], utilityPrivateKey: k2 })
 * afterAll(() => alto.stop())
 */
export async function startAlto({
  rpcUrl,
  entryPoints,
  executorPrivateKeys,
  utilityPrivateKey,
  readyTimeoutMs = 90_000,
}: StartAltoParameters): Promise<AltoBundler> {
  const port = await freePort()
  const args = [
    await ensureBundlerTools(),
    ...['--entrypoints', entryPoints.join(',')],
    ...['--rpc-url', rpcUrl],
    ...['--executor-private-keys', executorPrivateKeys.join(',')],
    ...['--utility-private-key', utilityPrivateKey],
    ...['--port', String(port)],
    ...['--safe-mode', 'false'],
    // Anvil mines on every transaction: poll for receipts often.
    ...['--block-time', '200'],
    ...['--min-bundle-interval', '20'],
    ...['--max-bundle-interval', '200'],
    ...['--log-level', 'warn'],
  ]
  // Alto reads ALTO_* variables and a .env in its working directory: keep
  // both from leaking in from whoever runs the tests.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('ALTO_')),
  )
  env.DOTENV_CONFIG_PATH = '/dev/null'
  const child: ChildProcess = spawn(process.execPath, args, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + String(chunk)).slice(-8_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })

  const bundlerUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + readyTimeoutMs
  for (;;) {
    if (child.exitCode !== null) throw new Error(`alto exited (${child.exitCode}): ${output}`)
    try {
      const answer = await supportedEntryPoints(bundlerUrl)
      if (Array.isArray(answer) && answer.length > 0) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`alto did not answer within ${readyTimeoutMs} ms: ${output}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return { bundlerUrl, stop }
}
