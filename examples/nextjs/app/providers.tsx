'use client'

import { LatchkeyProvider } from '@latchkey/react'
import type { ReactNode } from 'react'

/**
 * The provider is a client component: it keeps the session in the browser.
 * Next still renders it on the server (it touches no browser API while
 * rendering), and the browser's first render matches that HTML.
 */
export function Providers(props: { appId: string; apiUrl: string; children: ReactNode }) {
  return (
    <LatchkeyProvider
      appId={props.appId}
      apiUrl={props.apiUrl}
      // Mirrors the short-lived access token into the `latchkey-token`
      // cookie, so server components can read the session (./session.ts).
      config={{ accessTokenCookie: true, loginMethods: ['email'] }}
    >
      {props.children}
    </LatchkeyProvider>
  )
}
