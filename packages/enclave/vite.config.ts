import { fileURLToPath } from 'node:url'
import { build, defaultClientConditions, defineConfig, type InlineConfig, type Plugin } from 'vite'

// Builds the enclave's two page scripts into dist/: enclave.js (the wallet
// page, served at /apps/enclave.js by packages/server/src/enclave/page.ts) and
// export.js (the key-export page, served at /apps/export.js by
// packages/server/src/enclave/export.ts). Each is one ES module, no chunks, no
// inline scripts (the pages' CSP is `script-src 'self'`), no Node polyfills.
// Rollup cannot emit two self-contained files from one multi-entry build (it
// would share a chunk), so export.js is a second build run after the first.
//   npx vite build --config packages/enclave/vite.config.ts
const root = fileURLToPath(new URL('.', import.meta.url))

function pageBuild(entry: string, fileName: string, emptyOutDir: boolean): InlineConfig {
  return {
    root,
    configFile: false,
    publicDir: false,
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    // @latchkey/protocol from its TypeScript sources (its `latchkey-source` export).
    resolve: { conditions: ['latchkey-source', ...defaultClientConditions] },
    build: {
      outDir: 'dist',
      emptyOutDir,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      modulePreload: false,
      reportCompressedSize: false,
      lib: {
        entry: fileURLToPath(new URL(entry, import.meta.url)),
        formats: ['es'],
        fileName: () => fileName,
      },
      rollupOptions: {
        output: { inlineDynamicImports: true },
        onwarn(warning, warn) {
          // Dependencies' comments placed where Rollup cannot read them as
          // annotations: harmless (Rollup drops the comment), and not ours to fix.
          if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/node_modules/'))
            return
          warn(warning)
        },
      },
    },
  }
}

/** After enclave.js is written, builds export.js into the same dist/ (without emptying it). */
function exportPageBuild(): Plugin {
  return {
    name: 'latchkey-export-page',
    apply: 'build',
    async closeBundle(error?: Error) {
      if (error) return
      await build(pageBuild('src/export/main.ts', 'export.js', false))
    },
  }
}

const enclave = pageBuild('src/page/main.ts', 'enclave.js', true)
export default defineConfig({ ...enclave, plugins: [exportPageBuild()] })
