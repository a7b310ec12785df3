import { fileURLToPath } from 'node:url'
import type { NextConfig } from 'next'

const config: NextConfig = {
  // The monorepo's root, where the @latchkey/* workspace links live.
  turbopack: { root: fileURLToPath(new URL('../..', import.meta.url)) },
}

export default config
