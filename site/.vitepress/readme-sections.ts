import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import type { MarkdownRenderer } from 'vitepress'
import { REPO_ROOT } from './source-links.ts'

/** On a line of its own (a mention in running text or code is left alone). */
const DIRECTIVE = /^<!--\s*@readme:\s*(.+?)\s*-->$/gm

/**
 * `<!-- @readme: Quick start, Use it in your app -->` in a page becomes those
 * `##` sections of the README, so the site's quick start is the README's and
 * cannot drift from it. The README's links are relative to the repository
 * root; they are rebased onto the page's folder (then `sourceLinks` turns the
 * ones outside docs/ into source links). A section the README lacks fails
 * the build.
 *
 * @example
 * markdown: { config: (md) => readmeSections(md) }
 */
export function readmeSections(md: MarkdownRenderer): void {
  md.core.ruler.before('normalize', 'latchkey_readme_sections', (state) => {
    if (!state.src.includes('@readme:')) return
    const page = (state.env as { realPath?: string; path?: string }).realPath ?? state.env.path
    const readme = readFileSync(resolve(REPO_ROOT, 'README.md'), 'utf8')
    state.src = state.src.replace(DIRECTIVE, (_, titles: string) =>
      titles
        .split(',')
        .map((title) => rebaseLinks(section(readme, title.trim()), dirname(page as string)))
        .join('\n\n'),
    )
  })
}

/** The `## title` section of a markdown text, up to the next `## ` heading. */
export function section(markdown: string, title: string): string {
  const lines = markdown.split('\n')
  const start = lines.findIndex((line) => line.trim() === `## ${title}`)
  if (start < 0) throw new Error(`README.md has no section "## ${title}"`)
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '))
  return lines
    .slice(start, end < 0 ? undefined : end)
    .join('\n')
    .trim()
}

/** `[x](docs/server.md)` read from the root becomes `[x](server.md)` from docs/. */
function rebaseLinks(markdown: string, pageDir: string): string {
  return markdown.replace(/\]\(([^)\s#]+)((?:#[^)\s]*)?)\)/g, (match, target: string, hash) =>
    /^(?:[a-z][a-z0-9+.-]*:|\/)/i.test(target)
      ? match
      : `](${relative(pageDir, resolve(REPO_ROOT, target)) || '.'}${hash})`,
  )
}
