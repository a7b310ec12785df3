import type { LoginMethod } from '@latchkey/core'
import { OAUTH_PROVIDERS } from '@latchkey/protocol/constants'
import type { OAuthProvider } from '@latchkey/protocol/schemas'
import type { ReactElement } from 'react'

/*
 * How the landing screen draws each social provider: its name and a small
 * monochrome mark (inline SVG, currentColor, 20 px), in the spec's order.
 */

export interface OAuthProviderDisplay {
  provider: OAuthProvider
  /** Button label: the provider's name. */
  name: string
  icon: () => ReactElement
}

const svg = (path: string, label: string) => () => (
  <svg
    width="20"
    height="20"
    viewBox="0 0 24 24"
    fill="currentColor"
    role="img"
    aria-label={label}
    focusable="false"
  >
    <path d={path} />
  </svg>
)

/** A letter in a circle, for providers whose mark is not drawn here. */
const letter = (ch: string, label: string) => () => (
  <svg width="20" height="20" viewBox="0 0 24 24" role="img" aria-label={label} focusable="false">
    <circle cx="12" cy="12" r="11" fill="currentColor" />
    <text
      x="12"
      y="16.5"
      textAnchor="middle"
      fontSize="13"
      fontWeight="700"
      fontFamily="system-ui, sans-serif"
      fill="#fff"
    >
      {ch}
    </text>
  </svg>
)

export const OAUTH_PROVIDER_DISPLAY: Readonly<Record<OAuthProvider, OAuthProviderDisplay>> = {
  google: {
    provider: 'google',
    name: 'Google',
    icon: svg(
      'M21.35 11.1H12v2.98h5.35c-.23 1.4-1.64 4.1-5.35 4.1a6.18 6.18 0 0 1 0-12.36c1.9 0 3.17.8 3.9 1.5l2.66-2.56A9.6 9.6 0 0 0 12 2.2a9.8 9.8 0 1 0 0 19.6c5.66 0 9.41-3.98 9.41-9.58 0-.64-.07-1.13-.16-1.62z',
      'Google',
    ),
  },
  apple: {
    provider: 'apple',
    name: 'Apple',
    icon: svg(
      'M16.37 12.6c-.02-2.2 1.8-3.26 1.88-3.31a4.05 4.05 0 0 0-3.18-1.72c-1.35-.14-2.64.8-3.33.8-.69 0-1.74-.78-2.87-.76a4.24 4.24 0 0 0-3.58 2.18c-1.53 2.65-.39 6.57 1.1 8.72.73 1.05 1.6 2.23 2.74 2.19 1.1-.04 1.52-.71 2.85-.71s1.7.71 2.87.69c1.18-.02 1.93-1.07 2.65-2.13a9.5 9.5 0 0 0 1.2-2.47 3.83 3.83 0 0 1-2.33-3.48zM14.2 6.13a3.8 3.8 0 0 0 .9-2.76 3.9 3.9 0 0 0-2.53 1.31 3.64 3.64 0 0 0-.92 2.66 3.22 3.22 0 0 0 2.55-1.21z',
      'Apple',
    ),
  },
  discord: { provider: 'discord', name: 'Discord', icon: letter('D', 'Discord') },
  github: {
    provider: 'github',
    name: 'GitHub',
    icon: svg(
      'M12 2a10 10 0 0 0-3.16 19.49c.5.09.68-.22.68-.48v-1.7c-2.78.6-3.37-1.34-3.37-1.34-.45-1.16-1.11-1.47-1.11-1.47-.91-.62.07-.6.07-.6 1 .07 1.53 1.03 1.53 1.03.9 1.53 2.34 1.09 2.91.83.09-.65.35-1.09.63-1.34-2.22-.25-4.56-1.11-4.56-4.94 0-1.09.39-1.98 1.03-2.68-.1-.25-.45-1.27.1-2.65 0 0 .84-.27 2.75 1.02a9.5 9.5 0 0 1 5 0c1.91-1.29 2.75-1.02 2.75-1.02.55 1.38.2 2.4.1 2.65.64.7 1.03 1.59 1.03 2.68 0 3.84-2.34 4.69-4.57 4.93.36.31.68.92.68 1.85v2.75c0 .27.18.58.69.48A10 10 0 0 0 12 2z',
      'GitHub',
    ),
  },
  linkedin: {
    provider: 'linkedin',
    name: 'LinkedIn',
    icon: svg(
      'M20.45 20.45h-3.56v-5.57c0-1.33-.02-3.04-1.85-3.04-1.85 0-2.14 1.45-2.14 2.94v5.67H9.35V9h3.41v1.56h.05c.48-.9 1.64-1.85 3.37-1.85 3.6 0 4.27 2.37 4.27 5.46v6.28zM5.34 7.43a2.06 2.06 0 1 1 0-4.13 2.06 2.06 0 0 1 0 4.13zM7.12 20.45H3.56V9h3.56v11.45zM22.22 0H1.77C.79 0 0 .77 0 1.73v20.54C0 23.23.79 24 1.77 24h20.45c.98 0 1.78-.77 1.78-1.73V1.73C24 .77 23.2 0 22.22 0z',
      'LinkedIn',
    ),
  },
  spotify: { provider: 'spotify', name: 'Spotify', icon: letter('S', 'Spotify') },
  instagram: { provider: 'instagram', name: 'Instagram', icon: letter('I', 'Instagram') },
  twitter: {
    provider: 'twitter',
    name: 'Twitter',
    icon: svg(
      'M18.24 2.25h3.31l-7.23 8.26 8.5 11.24h-6.65l-5.21-6.82-5.97 6.82H1.68l7.73-8.84L1.25 2.25h6.83l4.71 6.23 5.45-6.23zm-1.16 17.52h1.83L7.08 4.13H5.12l11.96 15.64z',
      'Twitter',
    ),
  },
  tiktok: { provider: 'tiktok', name: 'TikTok', icon: letter('T', 'TikTok') },
  line: { provider: 'line', name: 'LINE', icon: letter('L', 'LINE') },
}

/** The display name of a provider ('Google', 'GitHub', 'LINE'). */
export const oauthProviderName = (provider: OAuthProvider): string =>
  OAUTH_PROVIDER_DISPLAY[provider].name

/** The login method is a social provider (OAuth). */
export const isOAuthProvider = (method: LoginMethod): method is OAuthProvider =>
  (OAUTH_PROVIDERS as readonly string[]).includes(method)
