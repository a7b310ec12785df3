import { readdirSync } from 'node:fs'
import type { DefaultTheme } from 'vitepress'

type Group = { text: string; items: Array<[title: string, page: string]> }

/**
 * Every page of docs/, grouped. Pages are docs/ file names without `.md`;
 * `reference/…` are the generated pages (docs/reference/[page].paths.ts).
 */
export const GROUPS: Group[] = [
  {
    text: 'Getting started',
    items: [
      ['Quick start', 'index'],
      ['Client guide', 'client'],
      ['Next.js', 'nextjs'],
      ['Latchkey server', 'server'],
      ['Migrating from Privy', 'migrating-from-privy'],
    ],
  },
  {
    text: 'Login methods',
    items: [
      ['SMS and WhatsApp', 'login-sms'],
      ['Social (OAuth)', 'login-oauth'],
      ['Telegram', 'login-telegram'],
      ['Ethereum and Solana wallets', 'login-wallets'],
      ['Farcaster', 'login-farcaster'],
      ['Passkeys', 'passkeys'],
      ['Custom JWT', 'login-custom-jwt'],
      ['Guest', 'login-guest'],
      ['Cross-app', 'cross-app'],
      ['Access control', 'access-control'],
      ['Captcha', 'captcha'],
    ],
  },
  {
    text: 'Wallets',
    items: [
      ['Embedded wallets', 'wallets'],
      ['MFA', 'mfa'],
      ['wagmi', 'wagmi'],
      ['Solana Wallet Standard', 'solana-wallet-standard'],
      ['Farcaster signer', 'farcaster-signer'],
      ['Smart wallets (in progress)', 'smart-wallets'],
    ],
  },
  {
    text: 'Transactions & funding',
    items: [
      ['Transactions', 'transactions'],
      ['Funding', 'funding'],
    ],
  },
  {
    text: 'App backend',
    items: [
      ['Server API and SDK', 'server-api'],
      ['Webhooks', 'webhooks'],
      ['Delegated actions', 'delegated-actions'],
    ],
  },
  {
    text: 'Operations',
    items: [
      ['Operations', 'operations'],
      ['Admin console', 'console'],
      ['Container', 'container'],
      ['Benchmarks', 'benchmarks'],
      ['First load', 'first-load'],
      ['Testing', 'testing'],
      ['The docs site', 'docs-site'],
    ],
  },
  {
    text: 'Security',
    items: [
      ['Security model', 'security'],
      ['The security bar', 'security-bar'],
    ],
  },
  {
    text: 'Reference',
    items: [
      ['Configuration', 'reference/configuration'],
      ['HTTP API', 'reference/http-api'],
      ['Architecture', 'architecture'],
      ['Spec conformance', 'spec-conformance'],
    ],
  },
]

/**
 * The sidebar; throws when a page of `docsDir` is in no group, or a group
 * names a page that is not there, so a new doc cannot be left out of the site.
 */
export function sidebar(docsDir: string): DefaultTheme.SidebarItem[] {
  const listed = GROUPS.flatMap((group) => group.items.map(([, page]) => page))
  const pages = readdirSync(docsDir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => name.slice(0, -3))
  const unlisted = pages.filter((page) => !listed.includes(page))
  const missing = listed.filter((page) => !page.startsWith('reference/') && !pages.includes(page))
  if (unlisted.length || missing.length)
    throw new Error(
      `site/.vitepress/sidebar.ts: ${[
        ...unlisted.map((page) => `docs/${page}.md is in no sidebar group`),
        ...missing.map((page) => `docs/${page}.md is in the sidebar but not in docs/`),
      ].join('; ')}`,
    )
  return GROUPS.map((group) => ({
    text: group.text,
    items: group.items.map(([text, page]) => ({
      text,
      link: page === 'index' ? '/' : `/${page}`,
    })),
  }))
}
