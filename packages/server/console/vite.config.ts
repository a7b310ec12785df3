import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defaultClientConditions, defineConfig } from 'vite'

// The admin console (docs/console.md): built into the server package's
// dist/assets/console/, which packages/server/src/console/page.ts serves at
// /console (under assets/, which scripts/build-packages.mjs never prunes).
// No inline script or style: the page's CSP is script-src 'self'; style-src 'self'.
//   npx vite build --config packages/server/console/vite.config.ts
const root = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root,
  base: '/console/',
  publicDir: false,
  logLevel: 'warn',
  plugins: [react()],
  resolve: { conditions: ['latchkey-source', ...defaultClientConditions] },
  build: {
    outDir: fileURLToPath(new URL('../dist/assets/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
})
