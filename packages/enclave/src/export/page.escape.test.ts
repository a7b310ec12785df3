import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ChannelWindow } from '../page/channel.ts'
import { APP_ID, HOST } from '../page/harness.test-helper.ts'
import { MemoryDeviceShareStore } from '../page/store.ts'
import { EXPORT_ESCAPE_EVENT, EXPORT_INIT_EVENT } from './messages.ts'
import { type ExportPage, startExportPage } from './page.ts'

// Keys pressed inside the export frame never reach the host page: the page
// forwards Escape so the host's dialog closes (issue 16, item 7a), only to
// the host origin its accepted init came from.

const ENTROPY_ID = '0x1111111111111111111111111111111111111111'
let page: ExportPage | null = null

afterEach(() => {
  page?.stop()
  page = null
  document.body.replaceChildren()
})

function start() {
  const posted: { event: string; targetOrigin: string }[] = []
  const parent = {
    postMessage: (message: { event: string }, targetOrigin: string) =>
      posted.push({ event: message.event, targetOrigin }),
  }
  let listener: ((event: MessageEvent) => void) | null = null
  const win: ChannelWindow = {
    parent,
    addEventListener: (_type, l) => {
      listener = l
    },
    removeEventListener: () => {
      listener = null
    },
    location: { ancestorOrigins: Object.assign([HOST]) },
  }
  page = startExportPage({
    window: win,
    document,
    config: { appId: APP_ID, origins: [HOST, 'https://other.example'] },
    api: { authShare: vi.fn() },
    // No share on this device: the init is accepted, the page shows RECOVERY_REQUIRED.
    store: new MemoryDeviceShareStore(),
  })
  const init = (origin: string) =>
    listener?.({
      origin,
      source: parent,
      data: {
        event: EXPORT_INIT_EVENT,
        data: { access_token: 'token', entropy_id: ENTROPY_ID, chain_type: 'ethereum' },
      },
    } as unknown as MessageEvent)
  const escapes = () => posted.filter((p) => p.event === EXPORT_ESCAPE_EVENT)
  return { page, init, escapes }
}

const press = (key: string) => {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true })
  document.body.dispatchEvent(event)
  return event
}

describe('Escape inside the export page', () => {
  it('is forwarded to the exact origin of the accepted init', async () => {
    const h = start()
    h.init(HOST)
    await h.page.outcome
    const event = press('Escape')
    expect(h.escapes()).toEqual([{ event: EXPORT_ESCAPE_EVENT, targetOrigin: HOST }])
    expect(event.defaultPrevented).toBe(true)
  })

  it('goes to the other allowed origin when that one framed the page', async () => {
    const h = start()
    h.init('https://other.example')
    await h.page.outcome
    press('Escape')
    expect(h.escapes()).toEqual([
      { event: EXPORT_ESCAPE_EVENT, targetOrigin: 'https://other.example' },
    ])
  })

  it('is not sent before an init named the host, nor for other keys, nor after stop', async () => {
    const h = start()
    press('Escape')
    h.init('https://evil.example') // not an allowed origin: ignored
    press('Escape')
    expect(h.escapes()).toEqual([])

    h.init(HOST)
    await h.page.outcome
    press('Enter')
    press('Esc')
    expect(h.escapes()).toEqual([])

    h.page.stop()
    press('Escape')
    expect(h.escapes()).toEqual([])
  })
})
