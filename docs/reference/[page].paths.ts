// The generated reference pages (configuration, HTTP API): the docs site's
// dynamic route, rendered from the sources at build time (docs/docs-site.md).
// The generator runs in a child process with the workspace's `latchkey-source`
// condition, so it reads the TypeScript sources and builds the server from them.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

export default {
  paths() {
    const json = execFileSync(
      process.execPath,
      ['--conditions=latchkey-source', '--import', 'tsx', 'site/reference/pages.ts'],
      {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    return JSON.parse(json)
  },
}
