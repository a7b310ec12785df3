import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** A folder tree in the temp folder; `remove()` deletes it. */
export interface TempProject {
  root: string
  /** `root` joined with `path`. */
  path(...path: string[]): string
  remove(): void
}

/**
 * Writes `files` (path → content; objects are written as JSON) under a new
 * temp folder. A path ending in `/` is an empty folder.
 *
 * @example
 * const project = makeProject({ 'package.json': { workspaces: ['apps/*'] }, 'apps/demo/src/': '' })
 */
export function makeProject(files: Record<string, string | object>): TempProject {
  // realpath: macOS's tmpdir is a symlink, and the CLI prints real paths.
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'latchkey-cli-')))
  for (const [path, content] of Object.entries(files)) {
    const file = join(root, path)
    if (path.endsWith('/')) {
      mkdirSync(file, { recursive: true })
      continue
    }
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content))
  }
  return {
    root,
    path: (...path) => join(root, ...path),
    remove: () => rmSync(root, { recursive: true, force: true }),
  }
}
