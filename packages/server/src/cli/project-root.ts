import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

/** The folder the CLI keeps its default data in, and how it was found. */
export interface ProjectRoot {
  dir: string
  /**
   * `workspaces`: the outermost workspace root (package.json `workspaces`
   * listing the folder, or a pnpm-workspace.yaml) above the folder;
   * `package`: the nearest folder with a package.json; `cwd`: neither, the
   * folder itself.
   */
  reason: 'workspaces' | 'package' | 'cwd'
}

/**
 * The project a folder belongs to, so that the CLI finds the same data from
 * any of its sub-folders: the outermost workspace root that contains `cwd`
 * (npm and yarn `workspaces` globs; pnpm's pnpm-workspace.yaml marks its
 * root), else the nearest folder with a package.json (an app that installed
 * `@latchkey/server`), else `cwd` itself.
 *
 * npm's `npm_config_local_prefix` is not consulted: `node …/latchkey.mjs`
 * and `tsx` do not set it, and the CLI must find the same folder however it
 * is started.
 *
 * @example
 * findProjectRoot('/repo/apps/demo') // { dir: '/repo', reason: 'workspaces' } when /repo lists apps/*
 */
export function findProjectRoot(cwd: string): ProjectRoot {
  const start = resolve(cwd)
  let nearestPackage: string | undefined
  let workspaceRoot: string | undefined
  for (let dir = start; ; ) {
    const manifest = readManifest(dir)
    if (manifest !== undefined) {
      nearestPackage ??= dir
      if (workspacesContain(dir, manifest, start)) workspaceRoot = dir
    }
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) workspaceRoot = dir
    const parent = dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  if (workspaceRoot) return { dir: workspaceRoot, reason: 'workspaces' }
  if (nearestPackage) return { dir: nearestPackage, reason: 'package' }
  return { dir: start, reason: 'cwd' }
}

/** The folder's package.json: its JSON, `null` when unreadable as JSON, undefined when absent. */
function readManifest(dir: string): unknown {
  let text: string
  try {
    text = readFileSync(join(dir, 'package.json'), 'utf8')
  } catch {
    return undefined
  }
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** True when `root`'s `workspaces` (array, or yarn's `{ packages }`) cover `folder` or one of its parents. */
function workspacesContain(root: string, manifest: unknown, folder: string): boolean {
  const workspaces = (manifest as { workspaces?: unknown } | null)?.workspaces
  const patterns = Array.isArray(workspaces)
    ? workspaces
    : Array.isArray((workspaces as { packages?: unknown } | undefined)?.packages)
      ? (workspaces as { packages: unknown[] }).packages
      : undefined
  if (!patterns) return false
  const path = relative(root, folder).split(sep).filter(Boolean)
  if (path.length === 0) return true
  return patterns.some(
    (pattern) =>
      typeof pattern === 'string' &&
      !pattern.startsWith('!') &&
      matchesLeadingSegments(
        pattern.split('/').filter((segment) => segment !== '' && segment !== '.'),
        path,
      ),
  )
}

/** True when the glob segments match the first segments of `path` (`*`, `?` within a segment; `**` any depth). */
function matchesLeadingSegments(pattern: string[], path: string[]): boolean {
  const [head, ...tail] = pattern
  if (head === undefined) return true
  if (head === '**')
    return (
      matchesLeadingSegments(tail, path) ||
      (path.length > 0 && matchesLeadingSegments(pattern, path.slice(1)))
    )
  const [first, ...rest] = path
  return first !== undefined && segmentMatches(head, first) && matchesLeadingSegments(tail, rest)
}

function segmentMatches(glob: string, name: string): boolean {
  const source = glob
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('')
  return new RegExp(`^${source}$`).test(name)
}
