#!/usr/bin/env node
// `npm start`: provisions the demo app, then runs the Latchkey server (SQLite,
// dev mailbox) and the demo app side by side, and prints their URLs.
import { spawn, spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const serverPort = Number(process.env.LATCHKEY_PORT ?? 8787)
const demoPort = Number(process.env.DEMO_PORT ?? 5173)
const anvilPort = Number(process.env.ANVIL_PORT ?? 8545)
const anvilUrl = `http://127.0.0.1:${anvilPort}`
const solanaPort = Number(process.env.SOLANA_PORT ?? 8899)
const serverUrl = `http://localhost:${serverPort}`
const demoUrl = `http://localhost:${demoPort}`
// A fixed id keeps the demo's configuration stable across restarts (dev only).
const DEMO_APP_ID = 'latchkeydemo0000000000001'
// The server CLI from its TypeScript sources: through tsx, with the workspace
// packages resolved to their sources too (their `latchkey-source` export).
const cli = [
  '--conditions=latchkey-source',
  '--import',
  'tsx',
  join(root, 'packages/server/src/cli.ts'),
]
const env = {
  ...process.env,
  LATCHKEY_PUBLIC_URL: serverUrl,
  PORT: String(serverPort),
  // SIWE verifies smart-account signatures on the local chain through it.
  LATCHKEY_RPC_URLS: process.env.LATCHKEY_RPC_URLS ?? `31337=${anvilUrl}`,
}
const require = createRequire(import.meta.url)
const arch = process.arch === 'x64' ? 'amd64' : process.arch
const anvil = join(
  dirname(require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`)),
  'bin',
  'anvil',
)

const ensure = spawnSync(
  process.execPath,
  [
    ...cli,
    'apps',
    'ensure',
    // A fresh clone has no database yet: the CLI creates one only when asked.
    '--init',
    '--id',
    DEMO_APP_ID,
    '--name',
    'Latchkey Demo',
    '--origin',
    demoUrl,
    '--origin',
    `http://127.0.0.1:${demoPort}`,
    // Methods that need no third-party account: codes land in the dev mailbox / outbox.
    // Wallet login works with any browser wallet extension (or the local chain's keys);
    // passkeys with the browser's own authenticator (the demo runs on localhost).
    ...['email', 'sms', 'guest', 'wallet', 'passkey'].flatMap((method) => [
      '--login-method',
      method,
    ]),
  ],
  { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] },
)
if (ensure.status !== 0) process.exit(ensure.status ?? 1)
// The demo shows passkey sign-up ('Create new account' beside 'Log in with a passkey'),
// offers every MFA method (docs/mfa.md), and funding by another wallet or by
// QR code on the local chains (docs/funding.md; card on-ramps need the app's keys).
const settings = spawnSync(
  process.execPath,
  [
    ...cli,
    'apps',
    'settings',
    DEMO_APP_ID,
    '--set',
    JSON.stringify({
      passkeys_for_signup_enabled: true,
      mfa_methods: ['totp', 'sms', 'passkey'],
      funding: {
        options: [
          { method: 'wallets', provider: null },
          { method: 'manual', provider: null },
        ],
        default_recommended_amount: '0.1',
      },
    }),
  ],
  { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] },
)
if (settings.status !== 0) process.exit(settings.status ?? 1)

const children = []
function run(
  name,
  command,
  args,
  { cwd = root, extraEnv = {}, quiet = false, optional = false } = {},
) {
  const child = spawn(command, args, {
    cwd,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const prefix = (line) => (line ? `[${name}] ${line}\n` : '')
  // A quiet child's stdout is its answer (read by the caller), not log lines.
  for (const stream of quiet ? [child.stderr] : [child.stdout, child.stderr])
    stream.on('data', (chunk) => {
      for (const line of String(chunk).split('\n')) process.stdout.write(prefix(line))
    })
  child.on('exit', (code) => {
    console.log(`[${name}] exited with ${code}`)
    // An optional part (the smart wallets' bundler) stopping leaves the rest running.
    if (!optional) shutdown(code ?? 1)
  })
  children.push(child)
  return child
}

function shutdown(code = 0) {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  process.exit(code)
}
process.on('SIGINT', () => shutdown(0))
process.on('SIGTERM', () => shutdown(0))

// The local chain (Anvil, chain id 31337) with its funded dev accounts.
run('anvil', anvil, ['--port', String(anvilPort), '--host', '127.0.0.1', '--silent'])
run('server', process.execPath, [...cli, 'serve'])

async function waitFor(url, probe = () => fetch(url)) {
  for (let i = 0; i < 300; i++) {
    try {
      await probe()
      return true
    } catch {
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  return false
}

const anvilReady = () =>
  fetch(anvilUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
  })
if (!(await waitFor(anvilUrl, anvilReady))) {
  console.error('\n  The local chain is not answering after 60 s. See the lines above; stopping.\n')
  shutdown(1)
}
// The demo's Send panel: test tokens on Anvil and the Solana ledger stand-in.
const chains = run(
  'chains',
  process.execPath,
  [
    '--conditions=latchkey-source',
    '--import',
    'tsx',
    join(root, 'packages/server/src/test/local-chains.ts'),
    anvilUrl,
    String(solanaPort),
  ],
  { quiet: true },
)
const local = await new Promise((resolve) => {
  let buffered = ''
  chains.stdout.on('data', (chunk) => {
    buffered += String(chunk)
    const line = buffered.split('\n').find((l) => l.startsWith('{'))
    if (line) resolve(JSON.parse(line))
  })
})
run('demo', join(root, 'node_modules/.bin/vite'), ['--port', String(demoPort), '--strictPort'], {
  cwd: join(root, 'apps/demo'),
  extraEnv: {
    VITE_LATCHKEY_API_URL: serverUrl,
    VITE_LATCHKEY_APP_ID: DEMO_APP_ID,
    VITE_DEMO_RPC_URL: anvilUrl,
    VITE_DEMO_ERC20: local.erc20,
    VITE_DEMO_ERC721: local.erc721,
    VITE_DEMO_SOLANA_RPC_URL: local.solanaRpcUrl,
  },
})

// Smart wallets on the local chain (docs/smart-wallets.md): the ERC-4337
// contracts, a VerifyingPaymaster for the demo app's paymaster signer, and the
// Alto bundler; then the app's settings (Safe accounts, gas sponsored). The
// bundler comes from tools/erc4337-bundler, installed on the first start (a
// minute); without it the demo runs on, without its Smart wallet panel.
// LATCHKEY_DEMO_SMART_WALLETS=0 skips it.
const smartWallets =
  process.env.LATCHKEY_DEMO_SMART_WALLETS === '0' ? Promise.resolve(null) : startSmartWallets()

async function startSmartWallets() {
  const cliJson = (...args) => {
    const result = spawnSync(process.execPath, [...cli, ...args], { cwd: root, env })
    if (result.status !== 0) throw new Error(String(result.stderr))
    return String(result.stdout)
  }
  try {
    const { address: signer } = JSON.parse(
      cliJson('apps', 'smart-wallets', 'paymaster-key', DEMO_APP_ID, '--json'),
    )
    const stack = run(
      'smart-wallets',
      process.execPath,
      [
        '--conditions=latchkey-source',
        '--import',
        'tsx',
        join(root, 'packages/server/src/test/local-smart-wallets.ts'),
        anvilUrl,
        signer,
      ],
      { quiet: true, optional: true },
    )
    const { bundlerUrl, paymaster } = await new Promise((resolve, reject) => {
      let buffered = ''
      stack.stdout.on('data', (chunk) => {
        buffered += String(chunk)
        const line = buffered.split('\n').find((l) => l.startsWith('{'))
        if (line) resolve(JSON.parse(line))
      })
      stack.on('exit', (code) => reject(new Error(`exited with ${code}`)))
    })
    const chainArgs = ['--chain-id', '31337', '--bundler-url', bundlerUrl]
    cliJson(
      'apps',
      'smart-wallets',
      'add-chain',
      DEMO_APP_ID,
      ...chainArgs,
      '--paymaster-address',
      paymaster,
    )
    cliJson('apps', 'smart-wallets', 'set', DEMO_APP_ID, '--enable', '--type', 'safe')
    return bundlerUrl
  } catch (error) {
    console.log(`[smart-wallets] not started (${error.message.trim()}); the demo runs without them`)
    return null
  }
}

const answered = await Promise.all([waitFor(`${serverUrl}/health`), waitFor(demoUrl)])
const silent = ['server', 'demo'].filter((_, i) => !answered[i])
if (silent.length > 0) {
  console.error(
    `\n  Not answering after 60 s: ${silent.join(', ')}. See the lines above; stopping.\n`,
  )
  shutdown(1)
}
console.log(`
  Latchkey server:  ${serverUrl}
  Dev mailbox:      ${serverUrl}/dev/mailbox
  Dev SMS outbox:   ${serverUrl}/dev/outbox
  Admin console:    ${serverUrl}/console (sign in with a token from \`npm run latchkey -- admin create NAME\`)
  Demo app:         ${demoUrl}
  Demo app id:      ${DEMO_APP_ID}
  Local chain:      ${anvilUrl} (Anvil, chain id 31337; test ERC-20 ${local.erc20})
  Local Solana:     ${local.solanaRpcUrl} (ledger stand-in)

  Open the demo, click "Log in", and read your code in the dev mailbox or SMS outbox
  (it is printed here too), or click "Continue as guest".
`)
// Ready later on a first start (the bundler's install): said on a line of its own.
smartWallets.then((bundlerUrl) => {
  if (bundlerUrl)
    console.log(`  Smart wallets:    on (Safe accounts, gas sponsored; bundler ${bundlerUrl})\n`)
})
