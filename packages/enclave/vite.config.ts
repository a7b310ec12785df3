import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

// Builds the enclave page script into dist/enclave.js: one ES module, no
// chunks, no inline scripts (the page's CSP is `script-src 'self'`), no Node
// polyfills. The server serves it at /apps/enclave.js
// (packages/server/src/enclave/page.ts).
//   npx vite build --config packages/enclave/vite.config.ts
const root = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root,
  configFile: false,
  publicDir: false,
  logLevel: 'warn',
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    modulePreload: false,
    reportCompressedSize: false,
    lib: {
      entry: fileURLToPath(new URL('src/page/main.ts', import.meta.url)),
      formats: ['es'],
      fileName: () => 'enclave.js',
    },
    rollupOptions: {
      output: { inlineDynamicImports: true },
    },
  },
})
