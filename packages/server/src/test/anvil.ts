import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { freePort } from './free-port.ts'

/** A local Anvil node (Foundry), started for a test file and stopped after it. */
export interface AnvilNode {
  rpcUrl: string
  chainId: number
  stop(): Promise<void>
}

const require = createRequire(import.meta.url)

/** The platform binary `@foundry-rs/anvil` ships as an optional dependency. */
function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}/package.json`
  return join(dirname(require.resolve(pkg)), 'bin', 'anvil')
}

/**
 * Starts Anvil on a free port and resolves once it answers JSON-RPC.
 *
 * @example
 * const anvil = await startAnvil({ chainId: 10 })
 * afterAll(() => anvil.stop())
 */
export async function startAnvil({
  chainId = 31337,
  hardfork,
}: {
  chainId?: number
  /** e.g. 'prague' (EIP-7702); Anvil's default is its latest. */
  hardfork?: string
} = {}): Promise<AnvilNode> {
  const port = await freePort()
  const args = ['--port', String(port), '--host', '127.0.0.1', '--chain-id', String(chainId)]
  if (hardfork) args.push('--hardfork', hardfork)
  const child: ChildProcess = spawn(anvilBinary(), [...args, '--silent'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk)
  })
  const rpcUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited: ${stderr}`)
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      })
      if (response.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`anvil did not start: ${stderr}`)
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    rpcUrl,
    chainId,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
