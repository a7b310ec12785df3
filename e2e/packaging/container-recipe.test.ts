/**
 * @module
 * The container recipe (Dockerfile, compose.yaml, deploy/Caddyfile) against
 * what the server really does. The project's machine has a Docker client but
 * no engine, so the image is not built here: this test reads the recipe and
 * holds it to the server's code, and runs the image's health check command
 * against a real server. Nothing is installed; it takes a couple of seconds.
 */
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { routes } from '@latchkey/protocol'
import { loadConfigFromEnv, silentLogger, startServer } from '@latchkey/server'
import { describe, expect, it } from 'vitest'
import {
  type DockerStage,
  execForm,
  interpolate,
  parseDockerfile,
  parseYamlSubset,
  stageEnv,
  type Yaml,
} from './recipe-files.ts'
import { SERVE_COMMAND } from './serve-command.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (path: string) => readFileSync(join(root, path), 'utf8')
const stages = parseDockerfile(read('Dockerfile'))
const runtime = stages.at(-1) as DockerStage
const env = stageEnv(runtime)
const args = (stage: DockerStage, keyword: string) =>
  stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args)
const serverManifest = JSON.parse(read('packages/server/package.json')) as {
  bin: Record<string, string>
  dependencies: Record<string, string>
}
const routePaths = new Set<string>(Object.values(routes).filter((r) => typeof r === 'string'))

/**
 * Every environment variable the server reads: `loadConfigFromEnv`
 * (src/config.ts) and the `…FromEnv` helpers it calls, all of which take
 * `env` and read `env.NAME`. Test files and test helpers are left out.
 */
const serverEnvNames = new Set(
  readdirSync(join(root, 'packages/server/src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !/\.test\.ts$|(^|\/)test\//.test(file))
    .flatMap((file) => [
      ...read(`packages/server/src/${file}`).matchAll(
        /\benv\.([A-Z][A-Z0-9_]*)|\bint\('([A-Z][A-Z0-9_]*)'\)|\benv\['([A-Z][A-Z0-9_]*)'\]/g,
      ),
    ])
    .map((m) => (m[1] ?? m[2] ?? m[3]) as string),
)

/** Runs the HEALTHCHECK's exec form the way Docker would, with the image's env. */
function runHealthcheck(command: string[], port: number): Promise<number | null> {
  const [program, ...rest] = command
  expect(program).toBe('node')
  const child = spawn(process.execPath, rest, {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: 'ignore',
  })
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)))
}

describe('Dockerfile', () => {
  it('builds in stages, and the last one holds only the installed server', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2)
    const earlier = stages.slice(0, -1).map((stage) => stage.name)
    const copies = args(runtime, 'COPY')
    expect(copies.length).toBeGreaterThan(0)
    for (const copy of copies) {
      const from = /--from=(\S+)/.exec(copy)?.[1]
      expect(earlier, copy).toContain(from)
    }
    // No toolchain and no repository in the image: nothing installed or built there.
    expect(args(runtime, 'RUN').join('\n')).not.toMatch(/\bnpm\b|apt-get/)
  })

  it('packs the server and the workspace packages it depends on, and installs that tarball', () => {
    const wanted = [
      '@latchkey/server',
      ...Object.keys(serverManifest.dependencies).filter((name) => name.startsWith('@latchkey/')),
    ]
    const pack = stages.flatMap((s) => args(s, 'RUN')).find((run) => /\bnpm pack\b/.test(run))
    const packed = [...(pack ?? '').matchAll(/-w (\S+)/g)].map((m) => m[1])
    expect(packed.sort()).toEqual(wanted.sort())
    const install = stages.find((s) => args(s, 'RUN').some((run) => /\bnpm install\b/.test(run)))
    const manifest = args(install as DockerStage, 'RUN').join('\n')
    expect(manifest).toContain('"dependencies":{"@latchkey/server":"file:')
    for (const name of wanted.filter((n) => n !== '@latchkey/server'))
      expect(manifest).toContain(`"${name}":"file:`)
    expect(manifest).toMatch(/npm install --omit=dev/)
  })

  it('runs as an unprivileged user that owns the data folder', () => {
    const user = args(runtime, 'USER').at(-1)
    expect(user).toBeDefined()
    expect(user).not.toMatch(/^(root|0)(:|$)/)
    const uid = (user as string).split(':')[0] as string
    expect(args(runtime, 'RUN').join('\n')).toContain(`chown ${uid}`)
  })

  it('keeps its data in a volume: the SQLite file and, outside production, the dev master key', () => {
    const volumes = args(runtime, 'VOLUME').flatMap((v) =>
      v.startsWith('[') ? execForm(v) : v.split(/\s+/),
    )
    expect(volumes).toEqual(['/data'])
    expect(env.LATCHKEY_DATA_DIR).toBe('/data')
  })

  it('listens on every interface at the port it exposes, with only variables the server reads', () => {
    expect(env.HOST).toBe('0.0.0.0')
    expect(args(runtime, 'EXPOSE')).toEqual([env.PORT])
    expect(env.NODE_ENV).toBe('production')
    const unknown = Object.keys(env).filter((name) => name !== 'PATH' && !serverEnvNames.has(name))
    expect(unknown).toEqual([])
    expect(loadConfigFromEnv(env)).toMatchObject({
      port: Number(env.PORT),
      hostname: '0.0.0.0',
      dataDir: '/data',
      production: true,
    })
  })

  it("runs the packaged-server test's command, with the server's bin on PATH", () => {
    expect(execForm(args(runtime, 'CMD').at(-1) ?? '')).toEqual([...SERVE_COMMAND])
    expect(Object.keys(serverManifest.bin)).toContain(SERVE_COMMAND[0])
    const workdir = args(runtime, 'WORKDIR').at(-1)
    expect(env.PATH?.split(':')[0]).toBe(`${workdir}/node_modules/.bin`)
  })

  it('checks its health on a route the server answers: 0 while it serves, 1 once it stopped', async () => {
    const healthcheck = args(runtime, 'HEALTHCHECK').at(-1) ?? ''
    const command = execForm(healthcheck.replace(/^.*?\bCMD\s+/, ''))
    const paths = [...command.join(' ').matchAll(/}(\/[\w/-]*)`/g)].map((m) => m[1])
    expect(paths).toEqual([routes.health])
    expect(routePaths.has(paths[0] as string)).toBe(true)

    const dataDir = await mkdtemp(join(tmpdir(), 'latchkey-healthcheck-'))
    try {
      const config = loadConfigFromEnv({ LATCHKEY_DATA_DIR: dataDir })
      const server = await startServer({ ...config, port: 0, logger: silentLogger })
      try {
        expect(await runHealthcheck(command, server.port)).toBe(0)
      } finally {
        await server.close()
      }
      expect(await runHealthcheck(command, server.port)).toBe(1)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('compose.yaml', () => {
  const compose = parseYamlSubset(read('compose.yaml')) as { [key: string]: Yaml }
  const services = compose.services as { [name: string]: { [key: string]: Yaml } }
  const nodes = Object.entries(services).filter(([, service]) => service.build === '.')
  const nodeEnv = (service: { [key: string]: Yaml }) =>
    service.environment as Record<string, string>
  const masterKey = 'ab'.repeat(32)

  it('runs two nodes of the image on PostgreSQL 16 and Redis 7', () => {
    expect(nodes.map(([name]) => name)).toHaveLength(2)
    expect(services.postgres?.image).toMatch(/^postgres:16\b/)
    expect(services.redis?.image).toMatch(/^redis:7\b/)
    // docs/server.md "Rate limits": an evicting Redis would drop live counters.
    expect(services.redis?.command).toEqual(['redis-server', '--maxmemory-policy', 'noeviction'])
  })

  it('gives the nodes only variables the server reads, and the same ones', () => {
    const [first, ...others] = nodes.map(([, service]) => nodeEnv(service))
    for (const other of others) expect(other).toEqual(first)
    const unknown = Object.keys(first ?? {}).filter((name) => !serverEnvNames.has(name))
    expect(unknown).toEqual([])
  })

  it('shares PostgreSQL, Redis, the master key and the public URL, and the server accepts it', () => {
    for (const [name, service] of nodes) {
      const raw = nodeEnv(service)
      // The master key is never written in the file, and a missing one stops `compose up`.
      expect(raw.LATCHKEY_MASTER_KEY, name).toMatch(/^\$\{LATCHKEY_MASTER_KEY:\?/)
      expect(() => interpolate(raw.LATCHKEY_MASTER_KEY ?? '', {})).toThrow(/required/)
      const resolved = Object.fromEntries(
        Object.entries(raw).map(([key, value]) => [
          key,
          interpolate(value, { LATCHKEY_MASTER_KEY: masterKey }),
        ]),
      )
      const config = loadConfigFromEnv({ ...env, ...resolved })
      expect(config, name).toMatchObject({
        databaseUrl: 'postgres://latchkey:latchkey@postgres:5432/latchkey',
        redisUrl: 'redis://redis:6379',
        masterKey,
        publicUrl: 'http://localhost:8080',
        trustProxy: true,
        production: true,
        hostname: '0.0.0.0',
      })
      const postgres = services.postgres?.environment as Record<string, string>
      const url = new URL(config.databaseUrl as string)
      expect(url.hostname).toBe('postgres')
      expect(url.username).toBe(postgres.POSTGRES_USER)
      expect(url.pathname).toBe(`/${postgres.POSTGRES_DB}`)
      expect(decodeURIComponent(url.password)).toBe(
        interpolate(postgres.POSTGRES_PASSWORD ?? '', {}),
      )
      expect(new URL(config.redisUrl as string).hostname).toBe('redis')
      // Compose stops a node after this; the drain takes up to 10 s (operations.md).
      expect(Number.parseInt(String(service.stop_grace_period), 10)).toBeGreaterThan(10)
    }
  })

  it('balances over every node, by readiness, through the mounted Caddyfile', () => {
    const balancer = services.balancer as { [key: string]: Yaml }
    expect(balancer.volumes).toEqual(['./deploy/Caddyfile:/etc/caddy/Caddyfile:ro'])
    const caddyfile = read('deploy/Caddyfile')
    const upstreams = /reverse_proxy ([^{]+)\{/.exec(caddyfile)?.[1]?.trim().split(/\s+/)
    expect(upstreams?.sort()).toEqual(nodes.map(([name]) => `${name}:${env.PORT}`).sort())
    expect(/health_uri (\S+)/.exec(caddyfile)?.[1]).toBe(routes.ready)
    const published = (balancer.ports as string[])[0]?.split(':')[0]
    expect(
      new URL(interpolate(nodeEnv(nodes[0]?.[1] ?? {}).LATCHKEY_PUBLIC_URL ?? '', {})).port,
    ).toBe(published)
  })
})
