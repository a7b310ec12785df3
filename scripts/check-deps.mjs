#!/usr/bin/env node
// Every workspace declares what it imports, and imports what it declares.
//
// For each workspace (and the root, for the files outside every workspace) it
// reads the bare specifiers of `import`/`export … from`, `import()`,
// `require()` and `vi.mock()` in its source files and fails when:
//   - a published package's shipped source imports a package that is not in
//     its `dependencies` or `peerDependencies` (a devDependency is not
//     installed for the app that installs it);
//   - a test file, test helper or private workspace imports a package it does
//     not declare at all (it would get whatever version the root hoists);
//   - a declared package is imported by none of its files, unless listed in
//     TOOLS below with the reason it is there.
//   node scripts/check-deps.mjs
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, relative } from 'node:path'

const root = new URL('..', import.meta.url).pathname

/** Declared but never imported, on purpose: run as commands, or loaded by a tool by name. */
const TOOLS = {
  '.': {
    '@biomejs/biome': 'lint and format (`npx biome`)',
    '@foundry-rs/anvil': 'the local chain binary (`npm start`, e2e and server tests)',
    '@types/node': 'Node types for every workspace (tsconfig `types`)',
    '@types/react': 'React types (tsconfig)',
    '@types/react-dom': 'React DOM types (tsconfig)',
    'happy-dom': "vitest's `environment: 'happy-dom'`",
    tsx: 'runs the TypeScript CLI and scripts (`npm run latchkey`, scripts/start.mjs)',
    typescript: '`tsc` (`npm run typecheck`, package builds)',
    vite: '`npm run build:enclave`',
    vitest: '`npm test`',
  },
  'packages/react': {
    '@testing-library/dom': 'peer dependency of @testing-library/react',
  },
  'examples/nextjs': {
    'react-dom': 'peer dependency of next, which renders with it',
  },
}

/** Sources that ship only as a built bundle (their imports are build-time), with why. */
const BUNDLED = {
  'packages/server': { 'console/': 'the admin console, built by Vite into dist/assets/console' },
}

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]))
const rootManifest = readJson(join(root, 'package.json'))
const workspaceDirs = rootManifest.workspaces.flatMap((pattern) =>
  pattern.endsWith('/*')
    ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(pattern.slice(0, -2), entry.name))
    : [pattern],
)

// Examples are not workspaces (nothing installs them here), but their
// package.json is what a reader copies: it must list what the example imports.
const exampleDirs = existsSync(join(root, 'examples'))
  ? readdirSync(join(root, 'examples'), { withFileTypes: true })
      .filter((entry) => existsSync(join(root, 'examples', entry.name, 'package.json')))
      .map((entry) => join('examples', entry.name))
  : []

const problems = []
for (const dir of ['.', ...workspaceDirs, ...exampleDirs]) check(dir)
if (problems.length) {
  console.error(`Dependency check failed:\n  ${problems.join('\n  ')}`)
  process.exit(1)
}
console.log(`Dependencies: ${workspaceDirs.length + 1} workspaces declare what they import`)

function check(dir) {
  const manifest = readJson(join(root, dir, 'package.json'))
  const runtime = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ])
  const dev = new Set(Object.keys(manifest.devDependencies ?? {}))
  const used = new Set()
  const files = dir === '.' ? rootFiles() : listSources(join(root, dir))
  for (const file of files) {
    // JSX compiles to imports of react/jsx-runtime.
    if (file.endsWith('.tsx')) used.add('react')
    const inPackage = relative(join(root, dir), file)
    const bundled = Object.keys(BUNDLED[dir] ?? {}).some((prefix) => inPackage.startsWith(prefix))
    const shipped = !manifest.private && !bundled && !isTestFile(inPackage)
    for (const specifier of bareImports(readFileSync(file, 'utf8'))) {
      const name = packageName(specifier)
      if (!name || builtins.has(specifier) || name === manifest.name) continue
      used.add(name)
      const where = relative(root, file)
      if (shipped && !runtime.has(name))
        problems.push(
          dev.has(name)
            ? `${where} imports ${name}, a devDependency of ${manifest.name}: apps that install it do not get it`
            : `${where} imports ${name}, which ${manifest.name} does not declare`,
        )
      else if (!runtime.has(name) && !dev.has(name))
        problems.push(`${where} imports ${name}, which ${manifest.name} does not declare`)
    }
  }
  const tools = TOOLS[dir] ?? {}
  for (const name of [...runtime, ...dev]) {
    if (used.has(name) || name in tools) continue
    if (name.startsWith('@types/') && used.has(typesTarget(name))) continue
    problems.push(`${manifest.name} declares ${name} but none of its files imports it`)
  }
}

/** `@types/foo__bar` → `@foo/bar`, `@types/foo` → `foo`. */
function typesTarget(name) {
  const bare = name.slice('@types/'.length)
  return bare.includes('__') ? `@${bare.replace('__', '/')}` : bare
}

function isTestFile(path) {
  return (
    /\.test\.tsx?$/.test(path) ||
    /(^|\/)src\/test\//.test(path) ||
    /(^|\/)testing\.ts$/.test(path) ||
    /\.test-helper\.tsx?$/.test(path) ||
    /(^|\/)vite\.config\.ts$/.test(path)
  )
}

function packageName(specifier) {
  if (/^[./]/.test(specifier) || /^[a-z]+:/.test(specifier))
    return builtins.has(specifier) ? specifier : null
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

function bareImports(source) {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
  const patterns = [
    /(?:^|[\n;])\s*(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
    /(?:^|[\n;])\s*import\s*['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire(?:\.resolve)?\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bvi\.(?:do)?[mM]ock\(\s*['"]([^'"]+)['"]/g,
  ]
  return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]))
}

function listSources(dir) {
  const out = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', '.data', 'coverage'].includes(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...listSources(path))
    else if (/\.(ts|tsx|mts|js|mjs|jsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
      out.push(path)
  }
  return out
}

/** The root's own files: configs at the top and scripts/. */
function rootFiles() {
  const top = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|js|mjs)$/.test(entry.name))
    .map((entry) => join(root, entry.name))
  return [...top, ...listSources(join(root, 'scripts'))]
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'))
}
