import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// The demo the browser tests load, built once per change of its inputs: a
// build is ~30 s of CPU on the CI machine, and `.ci/run` starts the browser
// tests twice (SQLite, then the PostgreSQL smoke), a developer once per file
// they re-run. The server's URL is the one thing a run changes: the build
// holds a placeholder, filled in when the build is copied out for a run.

/** Stands for the run's server URL in the cached build. */
const API_URL_PLACEHOLDER = 'http://latchkey-e2e-api.invalid'

/** What the demo's build reads: its own files, the client packages' sources, the lockfile. */
const INPUT_DIRS = [
  'apps/demo',
  'packages/protocol/src',
  'packages/core/src',
  'packages/react/src',
  'packages/wagmi/src',
]
const INPUT_FILES = ['package-lock.json', 'tsconfig.base.json']
const SKIP = new Set(['node_modules', 'dist', '.vite'])
const isTest = (name: string) => /\.test(-helper)?\.tsx?$/.test(name) || name === 'test'

function* inputFiles(root: string, dir: string): Generator<string> {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (SKIP.has(entry.name) || isTest(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* inputFiles(root, path)
    else if (entry.isFile()) yield path
  }
}

/** A digest of every input of the build (paths and contents) and the VITE_ variables it reads. */
export function demoBuildKey(root: string, env: Record<string, string>): string {
  const hash = createHash('sha256')
  const files = [...INPUT_DIRS.flatMap((dir) => [...inputFiles(root, dir)]), ...INPUT_FILES]
  for (const file of files.sort()) {
    if (!existsSync(join(root, file)) || !statSync(join(root, file)).isFile()) continue
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0')
  }
  hash.update(JSON.stringify(Object.entries(env).sort()))
  return hash.digest('hex').slice(0, 16)
}

/**
 * Builds the demo into the cache (node_modules/.cache/latchkey-e2e-demo/<key>)
 * unless that build is there, then copies it to a fresh directory with the
 * placeholder replaced by `apiUrl`. Returns that directory.
 */
export async function demoBuildFor(
  root: string,
  options: { apiUrl: string; appId: string },
): Promise<string> {
  const demoRoot = join(root, 'apps/demo')
  const env = { VITE_LATCHKEY_API_URL: API_URL_PLACEHOLDER, VITE_LATCHKEY_APP_ID: options.appId }
  const cacheRoot = join(root, 'node_modules/.cache/latchkey-e2e-demo')
  const cached = join(cacheRoot, demoBuildKey(root, env))
  if (!existsSync(join(cached, 'index.html'))) {
    await mkdir(cacheRoot, { recursive: true })
    const building = await mkdtemp(join(cacheRoot, 'building-'))
    const { build } = await import('vite')
    const saved = { ...process.env }
    Object.assign(process.env, env)
    try {
      await build({
        root: demoRoot,
        configFile: join(demoRoot, 'vite.config.ts'),
        logLevel: 'error',
        build: { outDir: building, emptyOutDir: true, sourcemap: false },
      })
    } finally {
      for (const key of Object.keys(env)) {
        if (saved[key] === undefined) delete process.env[key]
        else process.env[key] = saved[key]
      }
    }
    // Another run may have finished the same build meanwhile: either copy is good.
    await rename(building, cached).catch(() => rm(building, { recursive: true, force: true }))
    await pruneOtherBuilds(cacheRoot, cached)
  }
  const outDir = await mkdtemp(join(tmpdir(), 'latchkey-e2e-demo-'))
  await cp(cached, outDir, { recursive: true })
  for (const file of await readdir(outDir, { recursive: true })) {
    if (!/\.(js|html)$/.test(file)) continue
    const path = join(outDir, file)
    const text = await readFile(path, 'utf8')
    if (text.includes(API_URL_PLACEHOLDER)) {
      await writeFile(path, text.replaceAll(API_URL_PLACEHOLDER, options.apiUrl))
    }
  }
  return outDir
}

/** Keeps the cache to the newest build (an old build is never read again). */
async function pruneOtherBuilds(cacheRoot: string, keep: string) {
  for (const entry of await readdir(cacheRoot)) {
    const path = join(cacheRoot, entry)
    if (path !== keep && !entry.startsWith('building-')) {
      await rm(path, { recursive: true, force: true })
    }
  }
}
