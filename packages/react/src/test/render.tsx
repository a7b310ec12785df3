import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { vi } from 'vitest'
import type { LatchkeyConfig } from '../config.ts'
import { LatchkeyProvider } from '../LatchkeyProvider.tsx'
import { API_URL, APP_ID, createFakeServer, type FakeServerOptions } from './fake-server.ts'

/** Renders `ui` inside a LatchkeyProvider whose `fetch` is a fake server. */
export function renderWithProvider(
  ui: ReactNode,
  options: { config?: LatchkeyConfig; server?: FakeServerOptions } = {},
) {
  const server = createFakeServer(options.server)
  vi.stubGlobal('fetch', server.fetch)
  const result = render(
    <LatchkeyProvider appId={APP_ID} apiUrl={API_URL} config={options.config}>
      {ui}
    </LatchkeyProvider>,
  )
  return { ...result, server }
}
