import { cleanup, configure, fireEvent, render, within } from '@testing-library/react'
import { createElement } from 'react'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { AppSettingsScreen } from '../../console/src/screens/AppSettingsScreen.tsx'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { createAdminWithCli } from './console.test-helper.ts'
import { CONSOLE_COOKIE, startConsoleSession } from './sessions.ts'

// The set-up the console's screen tests share: the screens render in
// happy-dom and their `fetch` is answered by a real server in process, as an
// admin signed in server-side (happy-dom's Response hides Set-Cookie, as a
// browser does).

export interface ConsoleScreenOptions {
  /**
   * Advance the test clock a second before each request, for tests that
   * read the audit log in order (its rows are ordered by time).
   */
  tick?: boolean
}

/** Registers the hooks; the returned function gives the test instance once `beforeAll` ran. */
export function setUpConsoleScreens(options: ConsoleScreenOptions = {}): () => TestInstance {
  configure({ asyncUtilTimeout: 5_000 })
  let t: TestInstance | undefined
  const realFetch = globalThis.fetch
  beforeAll(async () => {
    const instance = await getTestInstance()
    t = instance
    const admin = await createAdminWithCli(instance, 'ops')
    const session = await startConsoleSession(instance.db, admin.id, instance.clock.now())
    globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const request = new Request(new URL(String(input), instance.ownOrigin), init)
      request.headers.set('cookie', `${CONSOLE_COOKIE}=${session}`)
      if (options.tick) instance.clock.advance(1)
      return instance.server.app.request(request)
    }) as typeof fetch
  })
  afterEach(cleanup)
  afterAll(async () => {
    globalThis.fetch = realFetch
    await t?.close()
  })
  return () => {
    if (!t) throw new Error('the console test instance is made in beforeAll')
    return t
  }
}

/** Draws the app's settings screen, as the console's router does. */
export function renderAppSettings(t: TestInstance) {
  return render(
    createElement(AppSettingsScreen, { appId: t.app.id, navigate: () => {}, onError: () => {} }),
  )
}

/** The app's settings as stored (the `apps` row's JSON). */
// biome-ignore lint/suspicious/noExplicitAny: tests inspect stored settings loosely, as JSON.parse gives them
export async function storedSettings(t: TestInstance): Promise<Record<string, any>> {
  const { settings } = await t.db
    .selectFrom('apps')
    .select('settings')
    .where('id', '=', t.app.id)
    .executeTakeFirstOrThrow()
  return JSON.parse(settings)
}

/** Types `value` into the field labelled `label` inside `container`. */
export const typeInto = (container: HTMLElement, label: string | RegExp, value: string) =>
  fireEvent.change(within(container).getByLabelText(label), { target: { value } })
