/**
 * @module
 * A local prebuild mirror for better-sqlite3, for the installs outside the
 * repository. better-sqlite3 installs with `prebuild-install || node-gyp
 * rebuild`: prebuild-install downloads the compiled addon from GitHub, which
 * this machine cannot reach, so the addon compiles from source — about 45 s
 * of one core, the same C the repository's own `npm ci` compiled minutes
 * before. prebuild-install's documented mirror setting
 * (`npm_config_better_sqlite3_binary_host`) points it here instead: a
 * loopback HTTP server that serves that addon, packed the way a prebuild is
 * (`build/Release/better_sqlite3.node` in a `.tar.gz` named for the version,
 * Node ABI, platform and arch). Everything else about the install is what an
 * app's is; a version other than the repository's finds no prebuild here
 * and compiles as before.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { homedir } from 'node:os'
import { join } from 'node:path'

export interface SqliteMirror {
  /** The environment an `npm install` needs to take the addon from the mirror (empty: no addon to serve). */
  env: Record<string, string>
  close(): Promise<void>
}

/** Serves the addon of `root`'s node_modules/better-sqlite3; files for the archive go under `work`. */
export async function startSqliteMirror(root: string, work: string): Promise<SqliteMirror> {
  const dir = join(root, 'node_modules/better-sqlite3')
  const addon = 'build/Release/better_sqlite3.node'
  if (!existsSync(join(dir, addon))) return { env: {}, close: async () => {} }
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    version: string
  }
  // prebuild-install's name: {name}-v{version}-{runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz (glibc: no libc part).
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`
  const archive = join(work, name)
  await tar(['czf', archive, '-C', dir, addon])
  const body = await readFile(archive)
  const path = `/v${version}/${name}`
  const server = createServer((req, res) => {
    if (req.url !== path) return res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length })
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    env: { npm_config_better_sqlite3_binary_host: host },
    async close() {
      await new Promise((resolve) => server.close(resolve))
      // prebuild-install keeps what it downloads in the npm cache, keyed by URL: this
      // port's URL is never asked again.
      const url = `${host}${path}`
      const digest = createHash('sha512').update(url).digest('hex').slice(0, 6)
      const cache = process.env.npm_config_cache ?? join(homedir(), '.npm')
      await rm(join(cache, '_prebuilds', `${digest}-${name.replace(/[^a-zA-Z0-9.]+/g, '-')}`), {
        force: true,
      })
    },
  }
}

function tar(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('tar', args, { stdio: 'ignore' })
    child.once('error', reject)
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`tar ${args[0]} exited ${code}`)),
    )
  })
}
