import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defaultClientConditions, defineConfig } from 'vite'

// The demo's own folder is the root, so `npx vite build apps/demo` and
// `npm run dev -w @latchkey/demo` behave the same from anywhere.
const root = fileURLToPath(new URL('.', import.meta.url))
const port = Number(process.env.PORT) || 5173

export default defineConfig({
  root,
  envDir: root,
  plugins: [react()],
  // The workspace packages' TypeScript sources (their `latchkey-source` export), not their dist/.
  resolve: { conditions: ['latchkey-source', ...defaultClientConditions] },
  server: { port, strictPort: true },
  preview: { port, strictPort: true },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
})
