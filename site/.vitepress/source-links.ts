import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { MarkdownRenderer } from 'vitepress'

/** The repository root (this file is site/.vitepress/source-links.ts). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '')
export const DOCS_DIR = resolve(REPO_ROOT, 'docs')

/**
 * Where the repository's files are browsed: `LATCHKEY_DOCS_REPO_URL`, else the
 * root package.json's `repository`, else the project's GitHub address. Links
 * to files outside docs/ point there (docs/docs-site.md "Links").
 */
export function repositoryUrl(): string {
  const fromEnv = process.env.LATCHKEY_DOCS_REPO_URL
  if (fromEnv) return fromEnv.replace(/\/+$/, '')
  const manifest = JSON.parse(readFileSync(resolve(REPO_ROOT, 'package.json'), 'utf8')) as {
    repository?: string | { url?: string }
  }
  const declared =
    typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url
  if (declared) return declared.replace(/^git\+/, '').replace(/\.git$/, '')
  return 'https://github.com/latchkey/latchkey'
}

interface LinkEnv {
  path?: string
  realPath?: string
}

const isRelative = (href: string) => !/^(?:[a-z][a-z0-9+.-]*:|\/|#)/i.test(href)

/**
 * Rewrites links from docs pages to files outside docs/ (`../README.md`,
 * `../packages/server/src/config.ts`, `../examples/from-privy/`) into links to
 * the repository's source browser (`…/blob/<branch>/…`, `…/tree/<branch>/…`
 * for folders). A link to a file that does not exist fails the build, as a
 * dead link between pages does (VitePress checks those).
 *
 * @example
 * markdown: { config: (md) => sourceLinks(md, { repository: repositoryUrl(), branch: 'main' }) }
 */
export function sourceLinks(
  md: MarkdownRenderer,
  options: { repository: string; branch: string },
): void {
  const render = md.renderer.rules.link_open
  md.renderer.rules.link_open = (tokens, idx, mdOptions, env: LinkEnv, self) => {
    const token = tokens[idx]
    const href = token?.attrGet('href')
    const page = env.realPath ?? env.path
    if (token && href && page && isRelative(href)) {
      const [target = '', hash = ''] = href.split(/(?=#)/)
      const file = resolve(dirname(page), decodeURI(target))
      if (file !== DOCS_DIR && !file.startsWith(DOCS_DIR + sep)) {
        const where = relative(REPO_ROOT, file).split(sep).join('/')
        if (where.startsWith('..') || !existsSync(file))
          throw new Error(`${relative(REPO_ROOT, page)}: dead link to ${href} (no ${where})`)
        const kind = statSync(file).isDirectory() ? 'tree' : 'blob'
        token.attrSet('href', `${options.repository}/${kind}/${options.branch}/${where}${hash}`)
      }
    }
    return render
      ? render(tokens, idx, mdOptions, env, self)
      : self.renderToken(tokens, idx, mdOptions)
  }
}
