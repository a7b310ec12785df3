/**
 * @module
 * The published packages as an app outside this repository gets them. The
 * packages are built (`npm run build:packages`: incremental, so instant after
 * `npm run build`) and packed with `npm pack`; then, in folders under the
 * system's temp dir:
 *   - a Vite + React 19 + strict TypeScript app (./template.ts) installs
 *     @latchkey/react from its tarball, renders the README's embed snippet
 *     verbatim, type-checks, builds, and keeps the login modal out of the
 *     JavaScript a page loads first;
 *   - an empty folder installs @latchkey/server from its tarball and follows
 *     the README: `npx latchkey serve --init` (SQLite, dev mailbox),
 *     `npx latchkey apps create`, an email login through the HTTP API, and
 *     the access token checked with `@latchkey/server/verify`.
 * @latchkey/* come from the tarballs (npm `overrides`), everything else from
 * the registry through the caller's npm cache (`npm_config_cache`; CI's is
 * the one `npm ci` filled), preferred to the network; better-sqlite3's addon
 * from a local prebuild mirror of the one `npm ci` compiled
 * (./sqlite-mirror.ts), not a second minute-long compile.
 */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outsideEnv, type RunResult, run, stopGroup, waitForLine } from './run.ts'
import { SERVE_COMMAND } from './serve-command.ts'
import { type SqliteMirror, startSqliteMirror } from './sqlite-mirror.ts'
import { codeBlockAfter, writeHostApp } from './template.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const PUBLISHED = [
  '@latchkey/protocol',
  '@latchkey/core',
  '@latchkey/react',
  '@latchkey/wagmi',
  '@latchkey/server',
]
const INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund']
/**
 * Gzip bytes of the JavaScript the host page loads before the modal opens
 * (entry script and its preloads): React and React DOM alone are ~69 KB, the
 * SDK's budget on top is 40 KB (docs/benchmarks.md).
 */
const FIRST_LOAD_GZIP_CEILING = 110 * 1024
/** A rule of the modal's stylesheet: in the modal's lazy chunk, never in the first load. */
const MODAL_MARKER = '--lk-accent-fg'
const README_SECTION = '## Use it in your app'
const ORIGIN = 'http://localhost:5173'

interface Packed {
  name: string
  filename: string
  files: Array<{ path: string }>
}

let work: string
let packed: Packed[]
let sqliteMirror: SqliteMirror | undefined
const tarball = (name: string) => {
  const pkg = packed.find((p) => p.name === name)
  if (!pkg) throw new Error(`${name} was not packed`)
  return `file:${join(work, 'packs', pkg.filename)}`
}
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const wagmiDoc = readFileSync(join(root, 'docs/wagmi.md'), 'utf8')
/** The README's section for app developers, up to the next heading. */
const section = readme.split(/\n(?=## )/).find((part) => part.startsWith(README_SECTION)) ?? ''

/** The version this repository has installed: the npm cache holds it already. */
function installedVersion(name: string): string {
  for (const dir of ['.', 'apps/demo', 'packages/react', 'bench']) {
    const manifest = join(root, dir, 'node_modules', name, 'package.json')
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).version
  }
  throw new Error(`${name} is not installed in this repository`)
}

const seconds = (result: RunResult) => `${result.seconds.toFixed(1)} s`

beforeAll(async () => {
  // The server ships the enclave page; `npm test` builds it first (pretest).
  if (!existsSync(join(root, 'packages/enclave/dist/enclave.js')))
    await run('npm', ['run', 'build:enclave'], { cwd: root, env: process.env })
  const build = await run('npm', ['run', 'build:packages'], { cwd: root, env: process.env })
  work = await mkdtemp(join(tmpdir(), 'latchkey-packaging-'))
  await mkdir(join(work, 'packs'))
  const pack = await run(
    'npm',
    [
      'pack',
      '--json',
      '--pack-destination',
      join(work, 'packs'),
      ...PUBLISHED.flatMap((name) => ['-w', name]),
    ],
    { cwd: root, env: process.env },
  )
  packed = JSON.parse(pack.stdout)
  console.log(`packaging: build ${seconds(build)}, pack ${seconds(pack)}`)
})

afterAll(async () => {
  await sqliteMirror?.close()
  if (work) await rm(work, { recursive: true, force: true })
})

it('packs dist/ and nothing else: no sources, tests or fixtures, every export inside', () => {
  expect(packed.map((p) => p.name).sort()).toEqual([...PUBLISHED].sort())
  for (const pkg of packed) {
    const files = pkg.files.map((f) => f.path)
    const unexpected = files.filter(
      (path) =>
        !/^(package\.json|README\.md|LICENSE|dist\/.+|bin\/latchkey\.mjs)$/.test(path) ||
        /\.test\.|\.test-helper\.|\.fixture\.|(^|\/)test\/|(^|\/)testing\.|\.tsbuildinfo$/.test(
          path,
        ),
    )
    expect(unexpected, pkg.name).toEqual([])
    const dir = join(root, 'packages', pkg.name.replace('@latchkey/', ''))
    const { exports } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    for (const [subpath, target] of Object.entries<Record<string, string>>(exports))
      for (const condition of ['types', 'default'])
        if (target[condition])
          expect(files, `${pkg.name} ${subpath} ${condition}`).toContain(target[condition].slice(2))
    // Declarations import what is shipped: `.js`, never the `.ts` sources.
    for (const path of files.filter((f) => f.endsWith('.d.ts')))
      expect(readFileSync(join(dir, path), 'utf8'), path).not.toMatch(
        /['"]\.{1,2}\/[^'"\n]*(?<!\.d)\.tsx?['"]/,
      )
  }
  const server = packed.find((p) => p.name === '@latchkey/server')?.files.map((f) => f.path)
  expect(server).toEqual(
    expect.arrayContaining(['dist/assets/enclave.js', 'dist/assets/export.js']),
  )
})

it('documents the commands this file runs', () => {
  for (const command of [
    'npm install @latchkey/react',
    'npm install @latchkey/server',
    'npx latchkey serve --init',
    'npx latchkey apps create --name',
    "from '@latchkey/server/verify'",
  ])
    expect(section).toContain(command)
})

describe.concurrent('installed outside the repository', () => {
  it('a Vite + React + strict TypeScript app type-checks and builds the README snippet', async () => {
    const app = join(work, 'host-app')
    await writeHostApp(app, {
      dependencies: {
        '@latchkey/react': tarball('@latchkey/react'),
        '@latchkey/wagmi': tarball('@latchkey/wagmi'),
        '@tanstack/react-query': installedVersion('@tanstack/react-query'),
        react: installedVersion('react'),
        'react-dom': installedVersion('react-dom'),
        viem: installedVersion('viem'),
        wagmi: installedVersion('wagmi'),
      },
      devDependencies: Object.fromEntries(
        [
          '@types/node',
          '@types/react',
          '@types/react-dom',
          '@vitejs/plugin-react',
          'typescript',
          'vite',
        ].map((name) => [name, installedVersion(name)]),
      ),
      overrides: {
        '@latchkey/core': tarball('@latchkey/core'),
        '@latchkey/protocol': tarball('@latchkey/protocol'),
        // @latchkey/wagmi's own dependency on react: the app's (its tarball).
        '@latchkey/react': '$@latchkey/react',
      },
      app: codeBlockAfter(readme, README_SECTION, 'tsx'),
      // docs/wagmi.md's set-up, type-checked against the packed @latchkey/wagmi.
      extraSources: { 'Wagmi.tsx': codeBlockAfter(wagmiDoc, '## Set-up', 'tsx') },
    })
    const install = await run('npm', INSTALL, { cwd: app })
    const tsc = join(app, 'node_modules/typescript/bin/tsc')
    // The template's `npm run build`: tsc -b && vite build.
    const typecheck = await run(process.execPath, [tsc, '-b'], { cwd: app })
    // The template skips declaration files; ours must pass its settings too
    // (an error in a third-party package's declarations is not ours to fix).
    const declarations = await run(
      process.execPath,
      [tsc, '-p', 'tsconfig.app.json', '--skipLibCheck', 'false'],
      { cwd: app, allowFailure: true },
    )
    const errors = declarations.stdout.split('\n').filter((line) => /error TS\d+/.test(line))
    expect(declarations.code === 0 || errors.length > 0, declarations.stderr).toBe(true)
    expect(
      errors.filter(
        (line) => !/^node_modules\//.test(line) || /^node_modules\/@latchkey\//.test(line),
      ),
    ).toEqual([])
    const vite = join(app, 'node_modules/vite/bin/vite.js')
    const build = await run(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: app })

    const dist = join(app, 'dist')
    const html = readFileSync(join(dist, 'index.html'), 'utf8')
    const firstLoad = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map(
      (m) => m[1] as string,
    )
    const lazy = readdirSync(join(dist, 'assets'))
      .map((file) => `assets/${file}`)
      .filter((file) => file.endsWith('.js') && !firstLoad.includes(file))
    const read = (file: string) => readFileSync(join(dist, file))
    const firstLoadGzip = firstLoad.reduce(
      (sum, f) => sum + gzipSync(read(f), { level: 9 }).length,
      0,
    )
    expect(firstLoad.length).toBeGreaterThan(0)
    expect(firstLoadGzip).toBeLessThan(FIRST_LOAD_GZIP_CEILING)
    for (const file of firstLoad) expect(read(file).includes(MODAL_MARKER), file).toBe(false)
    expect(lazy.filter((file) => read(file).includes(MODAL_MARKER))).toHaveLength(1)
    console.log(
      `packaging: host app install ${seconds(install)}, tsc ${seconds(typecheck)}, ` +
        `declarations ${seconds(declarations)}, vite build ${seconds(build)}; first load ` +
        `${(firstLoadGzip / 1024).toFixed(1)} KB gzip (ceiling ${FIRST_LOAD_GZIP_CEILING / 1024} KB), ` +
        `${lazy.length} lazy chunks`,
    )
  })

  it('the server serves on SQLite from its tarball and logs a user in by email', async () => {
    const dir = join(work, 'server')
    await mkdir(dir)
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'auth-server',
        private: true,
        type: 'module',
        dependencies: { '@latchkey/server': tarball('@latchkey/server') },
        overrides: { '@latchkey/protocol': tarball('@latchkey/protocol') },
      }),
    )
    // better-sqlite3's addon from a local prebuild mirror (./sqlite-mirror.ts):
    // the one the repository's `npm ci` compiled, not a second compile.
    sqliteMirror = await startSqliteMirror(root, work)
    const install = await run('npm', INSTALL, { cwd: dir, env: outsideEnv(sqliteMirror.env) })
    // `--no`: never fetch a package called `latchkey` when the bin is missing.
    const latchkey = (...args: string[]) => run('npx', ['--no', 'latchkey', ...args], { cwd: dir })

    // A process group of its own: npx, its shell and the server stop together.
    const serve = spawn('npx', ['--no', ...SERVE_COMMAND], {
      cwd: dir,
      env: outsideEnv({ PORT: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    try {
      const started = performance.now()
      const [, url, publicUrl] = await waitForLine(
        serve,
        /Latchkey listening on (\S+) \(public URL (\S+)\)/,
      )
      const listening = (performance.now() - started) / 1000
      const health = await fetch(`${url}/health`)
      expect(health.status).toBe(200)
      expect(await health.json()).toMatchObject({ status: 'ok' })
      // The enclave page's script ships inside the server package.
      const enclave = await fetch(`${url}/apps/enclave.js`)
      expect(enclave.status).toBe(200)
      expect(enclave.headers.get('content-type')).toMatch(/javascript/)

      const { id: appId, secret: appSecret } = JSON.parse(
        (await latchkey('apps', 'create', '--name', 'Host app', '--origin', ORIGIN, '--json'))
          .stdout,
      )
      const headers = {
        'content-type': 'application/json',
        'latchkey-app-id': appId,
        origin: ORIGIN,
      }
      const email = 'host.app@example.com'
      const init = await fetch(`${url}/api/v1/passwordless/init`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email }),
      })
      expect(init.status, await init.clone().text()).toBe(200)
      // The code is in the dev mailbox once init has answered.
      const mailbox = await fetch(`${url}/api/v1/dev/mailbox?to=${encodeURIComponent(email)}`)
      const { messages } = (await mailbox.json()) as { messages: Array<{ code: string | null }> }
      const code = messages[0]?.code
      expect(code).toMatch(/^\d{6}$/)
      const auth = await fetch(`${url}/api/v1/passwordless/authenticate`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email, code }),
      })
      const session = (await auth.json()) as { token: string; user: { id: string } }
      expect(auth.status, JSON.stringify(session)).toBe(200)

      // An app backend verifies the token with the package's `verify` entry, and
      // reads the user through the server SDK (`sdk` entry) with the app secret.
      const verify = await run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          [
            "import { verifyAccessToken } from '@latchkey/server/verify'",
            'const { TOKEN, APP_ID, ISSUER, JWKS_URL } = process.env',
            'const claims = await verifyAccessToken(TOKEN, { appId: APP_ID, issuer: ISSUER, jwksUrl: JWKS_URL })',
            "const { createLatchkeyServerClient } = await import('@latchkey/server/sdk')",
            'const { SERVER_URL, APP_SECRET } = process.env',
            'const latchkey = createLatchkeyServerClient({ url: SERVER_URL, appId: APP_ID, appSecret: APP_SECRET })',
            'const user = await latchkey.getUser(claims.sub)',
            'console.log(JSON.stringify({ ...claims, sdk_user_id: user?.id }))',
          ].join('\n'),
        ],
        {
          cwd: dir,
          env: outsideEnv({
            TOKEN: session.token,
            APP_ID: appId,
            APP_SECRET: appSecret,
            SERVER_URL: url as string,
            ISSUER: publicUrl as string,
            JWKS_URL: `${url}/.well-known/jwks.json`,
          }),
        },
      )
      expect(JSON.parse(verify.stdout)).toMatchObject({
        sub: session.user.id,
        aud: appId,
        sdk_user_id: session.user.id,
      })
      console.log(
        `packaging: server install (better-sqlite3 from the local prebuild mirror) ${seconds(install)}, ` +
          `listening after ${listening.toFixed(1)} s`,
      )
    } finally {
      await stopGroup(serve)
    }
  })
})
