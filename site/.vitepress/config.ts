// The docs site: docs/ rendered with VitePress (docs/docs-site.md). The pages
// stay in docs/, where GitHub renders them too; the site adds the sidebar,
// local search, the generated references (docs/reference/[page].paths.ts) and
// the quick start read from the README (docs/index.md).
import { defineConfig } from 'vitepress'
import { readmeSections } from './readme-sections.ts'
import { sidebar } from './sidebar.ts'
import { DOCS_DIR, repositoryUrl, sourceLinks } from './source-links.ts'

const repository = repositoryUrl()

export default defineConfig({
  title: 'Latchkey',
  description:
    'Open-source, self-hostable login and embedded-wallet system for React apps: docs and references',
  srcDir: '../docs',
  // A link to a page that does not exist fails the build; so does a link to a
  // repository file that does not (source-links.ts).
  ignoreDeadLinks: false,
  // The docs are also read on GitHub, where README-style links to `x.md` work.
  cleanUrls: false,
  lastUpdated: false,
  markdown: {
    config(md) {
      readmeSections(md)
      sourceLinks(md, { repository, branch: process.env.LATCHKEY_DOCS_BRANCH ?? 'main' })
    },
  },
  themeConfig: {
    nav: [
      { text: 'Quick start', link: '/' },
      { text: 'Configuration', link: '/reference/configuration' },
      { text: 'HTTP API', link: '/reference/http-api' },
    ],
    sidebar: sidebar(DOCS_DIR),
    search: { provider: 'local' },
    outline: [2, 3],
    socialLinks: [{ icon: 'github', link: repository }],
  },
})
