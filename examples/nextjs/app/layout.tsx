import type { Metadata } from 'next'
import type { ReactNode } from 'react'
import { latchkeyEnv } from './latchkey-env'
import { Providers } from './providers'

// The Latchkey server is configured at run time (./latchkey-env.ts): every
// page renders per request, none at build time.
export const dynamic = 'force-dynamic'

export const metadata: Metadata = { title: 'Latchkey with Next.js' }

export default function RootLayout({ children }: { children: ReactNode }) {
  const { appId, apiUrl } = latchkeyEnv()
  return (
    <html lang="en">
      <body>
        <Providers appId={appId} apiUrl={apiUrl}>
          {children}
        </Providers>
      </body>
    </html>
  )
}
