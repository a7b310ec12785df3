// Bundle size: gzip bytes of the JavaScript a minimal host app loads before the
// modal opens (entry + statically preloaded chunks), minus React alone.
import { readFileSync } from 'node:fs'
import { mkdtemp, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import react from '@vitejs/plugin-react'
import { build, defaultClientConditions } from 'vite'

const here = dirname(fileURLToPath(import.meta.url))
const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length

async function buildApp(name) {
  const outDir = await mkdtemp(join(tmpdir(), `latchkey-bench-${name}-`))
  await build({
    root: join(here, 'bundle', name),
    logLevel: 'silent',
    plugins: [react()],
    // The SDK from its TypeScript sources (the packages' `latchkey-source` export).
    resolve: { conditions: ['latchkey-source', ...defaultClientConditions] },
    build: { outDir, emptyOutDir: true, modulePreload: { polyfill: false } },
  })
  const html = readFileSync(join(outDir, 'index.html'), 'utf8')
  const initial = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1])
  const all = (await readdir(join(outDir, 'assets'))).filter((f) => f.endsWith('.js'))
  const initialBytes = initial.reduce((sum, f) => sum + gz(join(outDir, f)), 0)
  const lazy = all.filter((f) => !initial.includes(`assets/${f}`))
  const lazyBytes = lazy.reduce((sum, f) => sum + gz(join(outDir, 'assets', f)), 0)
  return { initialBytes, lazyBytes, initialFiles: initial.length, lazyFiles: lazy.length }
}

/** Returns the figures; printed by bench/run.mjs. */
export async function measureBundle() {
  const [sdk, reactOnly] = [await buildApp('sdk'), await buildApp('react-only')]
  return {
    sdkBeforeModalBytes: sdk.initialBytes - reactOnly.initialBytes,
    hostWithSdkBytes: sdk.initialBytes,
    reactAloneBytes: reactOnly.initialBytes,
    modalLazyBytes: sdk.lazyBytes,
    lazyChunks: sdk.lazyFiles,
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await measureBundle())
