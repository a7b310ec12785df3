import { afterAll, expect, it } from 'vitest'
import { makeProject } from '../test/temp-project.ts'
import { findProjectRoot } from './project-root.ts'

const project = makeProject({
  'package.json': { name: 'repo', workspaces: ['packages/*', 'apps/*', 'e2e'] },
  'apps/demo/package.json': { name: 'demo' },
  'apps/demo/src/deep/': '',
  'e2e/package.json': { name: 'e2e' },
  'scripts/': '',
  // A package of its own inside the repo, not one of its workspaces.
  'tools/thing/package.json': { name: 'thing' },
  'tools/thing/lib/': '',
  // yarn's object form and `**`.
  'yarn/package.json': { workspaces: { packages: ['libs/**'] } },
  'yarn/libs/a/b/package.json': { name: 'b' },
  'pnpm/pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
  'pnpm/package.json': { name: 'pnpm-root' },
  'pnpm/packages/x/package.json': { name: 'x' },
  'broken/package.json': '{ not json',
  'broken/src/': '',
})
afterAll(() => project.remove())

it('is the workspace root from the root, a workspace, and any folder inside one', () => {
  for (const folder of ['', 'apps/demo', 'apps/demo/src/deep', 'e2e'])
    expect(findProjectRoot(project.path(folder))).toEqual({
      dir: project.root,
      reason: 'workspaces',
    })
})

it('is the workspace root from a folder of the root that has no package.json', () => {
  expect(findProjectRoot(project.path('scripts')).dir).toBe(project.root)
})

it('is a nested package when the workspaces do not list it', () => {
  expect(findProjectRoot(project.path('tools/thing/lib'))).toEqual({
    dir: project.path('tools/thing'),
    reason: 'package',
  })
})

it("reads yarn's { packages } form and ** globs", () => {
  expect(findProjectRoot(project.path('yarn/libs/a/b')).dir).toBe(project.path('yarn'))
})

it('takes a pnpm-workspace.yaml folder as a workspace root', () => {
  expect(findProjectRoot(project.path('pnpm/packages/x'))).toEqual({
    dir: project.path('pnpm'),
    reason: 'workspaces',
  })
})

it('counts a package.json that is not valid JSON as a package', () => {
  expect(findProjectRoot(project.path('broken/src'))).toEqual({
    dir: project.path('broken'),
    reason: 'package',
  })
})

it('is the folder itself when no package.json is at or above it', () => {
  const bare = makeProject({ 'a/b/': '' })
  try {
    // The temp folder's parents have no package.json on any sane machine.
    expect(findProjectRoot(bare.path('a/b'))).toEqual({ dir: bare.path('a/b'), reason: 'cwd' })
  } finally {
    bare.remove()
  }
})
