import { deriveSolanaAccount, secretFromMnemonic } from '@latchkey/protocol/keys'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createServerApi } from '../page/api.ts'
import type { ChannelWindow } from '../page/channel.ts'
import { loadPageDeviceKey } from '../page/device-key.ts'
import { MemoryDeviceKeyStore } from '../page/device-key-store.ts'
import { createFakeServer } from '../page/fake-server.test-helper.ts'
import { createHandlers } from '../page/handlers.ts'
import { APP_ID, HOST, settle } from '../page/harness.test-helper.ts'
import { ENCLAVE_ORIGIN } from '../page/proof.test-helper.ts'
import { MemoryDeviceShareStore } from '../page/store.ts'
import { EXPORT_INIT_EVENT } from './messages.ts'
import { type ExportPage, startExportPage } from './page.ts'
import { COPIED_TEXT, RECOVERY_REQUIRED_TEXT, WARNING_TEXT } from './view.ts'

const alice = 'user-alice'
// Well-known test keys (Hardhat account 0; a fixed Solana seed).
const ETH_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const SOL_SEED = new Uint8Array(32).fill(7)

interface Posted {
  message: { event: string; data?: unknown }
  targetOrigin: string
}

/** Serializes everything the page ever posted, for "no key material" checks. */
const postedText = (posted: Posted[]) => JSON.stringify(posted)

async function setup(options: { origins?: string[]; ancestorOrigins?: string[] } = {}) {
  const server = createFakeServer({ appId: APP_ID })
  const store = new MemoryDeviceShareStore()
  // The wallet page and the export page share the origin, so the device key too.
  const key = loadPageDeviceKey(new MemoryDeviceKeyStore(), APP_ID)
  const api = createServerApi({
    appId: APP_ID,
    fetch: server.fetch,
    proof: key.signProof,
    origin: ENCLAVE_ORIGIN,
  })
  const handlers = createHandlers({ appId: APP_ID, api, store })
  const posted: Posted[] = []
  const parent = {
    postMessage: vi.fn((message: Posted['message'], targetOrigin: string) => {
      posted.push({ message, targetOrigin })
    }),
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
    location: { ancestorOrigins: Object.assign([...(options.ancestorOrigins ?? [HOST])]) },
    document: { referrer: '' },
  }
  const clipboard = {
    text: '',
    writeText: vi.fn(async (t: string) => {
      clipboard.text = t
    }),
  }
  let page: ExportPage | null = null

  function start() {
    page = startExportPage({
      window: win,
      document,
      config: { appId: APP_ID, origins: options.origins ?? [HOST] },
      api,
      store,
      clipboard,
    })
    return page
  }

  function deliver(data: unknown, init: { origin?: string; source?: unknown } = {}) {
    listener?.({
      data,
      origin: init.origin ?? HOST,
      source: 'source' in init ? init.source : parent,
    } as unknown as MessageEvent)
  }

  function init(data: Record<string, unknown>, from: { origin?: string; source?: unknown } = {}) {
    deliver({ event: EXPORT_INIT_EVENT, data: { access_token: alice, ...data } }, from)
  }

  async function createHd(chainTypes: ('ethereum' | 'solana')[] = ['ethereum', 'solana']) {
    const { user } = (await handlers['latchkey:wallets:create']({
      access_token: alice,
      chain_types: chainTypes,
      recovery: { method: 'latchkey' },
    })) as {
      user: { linked_accounts: { address: string; chain_type: string; entropy_id: string }[] }
    }
    return user.linked_accounts
  }

  async function importKey(chain: 'ethereum' | 'solana', privateKey: string) {
    const { user } = (await handlers['latchkey:wallets:import']({
      access_token: alice,
      chain_type: chain,
      private_key: privateKey,
    })) as { user: { linked_accounts: { address: string; entropy_id: string }[] } }
    return user.linked_accounts[0] as { address: string; entropy_id: string }
  }

  return {
    server,
    store,
    handlers,
    posted,
    parent,
    clipboard,
    start,
    deliver,
    init,
    createHd,
    importKey,
    get page() {
      return page as ExportPage
    },
  }
}

const q = (selector: string) => document.querySelector<HTMLElement>(selector)
const click = (action: string) => {
  const button = q(`[data-action="${action}"]`)
  if (!button) throw new Error(`no ${action} button`)
  button.click()
}
const copied = async (action: string) => {
  click(action)
  await vi.waitFor(() => expect(q(`[data-action="${action}"]`)?.textContent).toBe(COPIED_TEXT))
}

afterEach(() => {
  document.body.replaceChildren()
})

describe('the export page', () => {
  it('announces itself to the allowed parent origin only, then shows Loading...', async () => {
    const h = await setup({ origins: [HOST, 'https://other.example'] })
    h.start()
    expect(h.posted).toEqual([{ message: { event: 'latchkey:export:ready' }, targetOrigin: HOST }])
    expect(document.body.textContent).toContain(WARNING_TEXT)
    expect(document.body.textContent).toContain('Loading...')
  })

  it('stays silent when the indicated parent is not an allowed origin', async () => {
    const h = await setup({ ancestorOrigins: ['https://app.example.com.evil.test'] })
    h.start()
    expect(h.posted).toEqual([])
  })

  it('renders the warning, the address and both buttons for an HD Ethereum wallet; the copies restore it', async () => {
    const h = await setup()
    const [eth] = await h.createHd()
    const entropyId = eth?.entropy_id as string
    const page = h.start()
    h.init({ entropy_id: entropyId, chain_type: 'ethereum', wallet_index: 0 })
    const outcome = await page.outcome
    expect(outcome).toEqual({
      status: 'loaded',
      loaded: {
        address: eth?.address,
        chain_type: 'ethereum',
        wallet_index: 0,
        has_seed_phrase: true,
      },
    })
    expect(q('[data-part="warning"]')?.textContent).toBe(WARNING_TEXT)
    expect(q('[data-part="address"]')?.textContent).toBe(eth?.address)
    expect(q('[data-action="copy-private-key"]')?.textContent).toBe('Copy private key')
    expect(q('[data-action="copy-seed-phrase"]')?.textContent).toBe('Copy seed phrase')

    await copied('copy-private-key')
    const privateKey = h.clipboard.text as `0x${string}`
    expect(privateKey).toMatch(/^0x[0-9a-f]{64}$/)
    expect(privateKeyToAccount(privateKey).address).toBe(eth?.address)
    // Not in the DOM until revealed.
    expect(document.body.innerHTML).not.toContain(privateKey.slice(2))

    await copied('copy-seed-phrase')
    const phrase = h.clipboard.text
    expect(phrase.split(' ')).toHaveLength(12)
    expect(mnemonicToAccount(phrase).address).toBe(eth?.address)
    expect(document.body.innerHTML).not.toContain(phrase)

    expect(h.posted.map((p) => p.message.event)).toEqual([
      'latchkey:export:ready',
      'latchkey:export:loaded',
      'latchkey:export:copied',
      'latchkey:export:copied',
    ])
    expect(h.posted.every((p) => p.targetOrigin === HOST)).toBe(true)
    const sent = postedText(h.posted)
    expect(sent).not.toContain(privateKey.slice(2))
    expect(sent).not.toContain(phrase.split(' ').slice(0, 3).join(' '))
  })

  it('reveals and hides a key on demand', async () => {
    const h = await setup()
    const [eth] = await h.createHd(['ethereum'])
    const page = h.start()
    h.init({ entropy_id: eth?.entropy_id, chain_type: 'ethereum', wallet_index: 0 })
    await page.outcome
    const value = q('[data-part="private-key-value"]') as HTMLElement
    expect(value.hidden).toBe(true)
    expect(value.textContent).toBe('')
    click('reveal-private-key')
    expect(value.hidden).toBe(false)
    expect(privateKeyToAccount(value.textContent as `0x${string}`).address).toBe(eth?.address)
    expect(q('[data-action="reveal-private-key"]')?.textContent).toBe('Hide')
    click('reveal-private-key')
    expect(value.textContent).toBe('')
    expect(value.hidden).toBe(true)
  })

  it('exports HD Solana wallet 1 as a 64-byte base58 keypair whose phrase restores it', async () => {
    const h = await setup()
    const [eth] = await h.createHd(['ethereum', 'solana'])
    const entropyId = eth?.entropy_id as string
    await h.handlers['latchkey:wallets:add']({
      access_token: alice,
      entropy_id: entropyId,
      chain_type: 'solana',
      wallet_index: 1,
    })
    const page = h.start()
    h.init({ entropy_id: entropyId, chain_type: 'solana', wallet_index: 1 })
    const outcome = await page.outcome
    if (outcome.status !== 'loaded') throw new Error(outcome.message)
    const address = outcome.loaded.address
    expect(q('[data-part="address"]')?.textContent).toBe(address)

    await copied('copy-private-key')
    const keypair = base58.decode(h.clipboard.text)
    expect(keypair).toHaveLength(64)
    const publicKey = ed25519.getPublicKey(keypair.slice(0, 32))
    expect(keypair.slice(32)).toEqual(publicKey)
    expect(base58.encode(publicKey)).toBe(address)

    await copied('copy-seed-phrase')
    const restored = deriveSolanaAccount(secretFromMnemonic(h.clipboard.text), 1)
    expect(restored.address).toBe(address)
    expect(mnemonicToAccount(h.clipboard.text).address).toBe(entropyId)
    expect(postedText(h.posted)).not.toContain(h.clipboard.text)
  })

  it('exports an imported Ethereum key with no seed-phrase button', async () => {
    const h = await setup()
    const wallet = await h.importKey('ethereum', ETH_KEY)
    const page = h.start()
    h.init({ entropy_id: wallet.entropy_id, chain_type: 'ethereum', wallet_index: null })
    const outcome = await page.outcome
    expect(outcome).toMatchObject({ status: 'loaded', loaded: { has_seed_phrase: false } })
    expect(q('[data-action="copy-seed-phrase"]')).toBeNull()
    await copied('copy-private-key')
    expect(h.clipboard.text).toBe(ETH_KEY)
    expect(privateKeyToAccount(ETH_KEY).address).toBe(wallet.address)
  })

  it('exports an imported Solana key in the format it was imported in', async () => {
    const h = await setup()
    const keypair = new Uint8Array(64)
    keypair.set(SOL_SEED, 0)
    keypair.set(ed25519.getPublicKey(SOL_SEED), 32)
    const wallet = await h.importKey('solana', base58.encode(keypair))
    const page = h.start()
    h.init({ entropy_id: wallet.entropy_id, chain_type: 'solana' })
    expect(await page.outcome).toMatchObject({ status: 'loaded' })
    await copied('copy-private-key')
    expect(h.clipboard.text).toBe(base58.encode(keypair))
    expect(q('[data-action="copy-seed-phrase"]')).toBeNull()
  })

  it('ignores a look-alike origin, another source, a malformed init and other events', async () => {
    const h = await setup()
    const [eth] = await h.createHd(['ethereum'])
    const good = { entropy_id: eth?.entropy_id, chain_type: 'ethereum', wallet_index: 0 }
    h.start()
    h.init(good, { origin: 'https://app.example.com.evil.test' })
    h.init(good, { origin: `${HOST}/` })
    h.init(good, { origin: 'https://app.example.co' })
    h.init(good, { source: {} })
    h.init(good, { source: null })
    h.deliver({ event: EXPORT_INIT_EVENT, data: { ...good } }) // no access token
    h.init({ ...good, entropy_id: 'not-an-address' })
    h.init({ ...good, chain_type: 'bitcoin' })
    h.init({ ...good, wallet_index: -1 })
    h.deliver({ event: 'latchkey:wallets:connect', data: { access_token: alice, ...good } })
    h.deliver('latchkey:export:init')
    h.deliver(null)
    await settle()
    expect(h.posted.map((p) => p.message.event)).toEqual(['latchkey:export:ready'])
    expect(h.server.calls.filter((c) => c.path.includes('auth_share'))).toHaveLength(0)
    expect(document.body.textContent).toContain('Loading...')
    expect(q('[data-part="address"]')).toBeNull()
  })

  it('accepts only one init', async () => {
    const h = await setup()
    const [eth] = await h.createHd(['ethereum'])
    const page = h.start()
    h.init({ entropy_id: eth?.entropy_id, chain_type: 'ethereum', wallet_index: 0 })
    h.init({ entropy_id: eth?.entropy_id, chain_type: 'ethereum', wallet_index: 0 })
    await page.outcome
    await settle()
    expect(h.server.calls.filter((c) => c.path.includes('auth_share'))).toHaveLength(1)
    expect(h.posted.filter((p) => p.message.event === 'latchkey:export:loaded')).toHaveLength(1)
  })

  it('asks for recovery when this device has no share of the wallet (RECOVERY_REQUIRED)', async () => {
    const h = await setup()
    const [eth] = await h.createHd(['ethereum'])
    await h.store.clearApp(APP_ID)
    const page = h.start()
    h.init({ entropy_id: eth?.entropy_id, chain_type: 'ethereum', wallet_index: 0 })
    expect(await page.outcome).toMatchObject({ status: 'error', code: 'RECOVERY_REQUIRED' })
    expect(document.body.textContent).toContain(RECOVERY_REQUIRED_TEXT)
    expect(q('[data-action="copy-private-key"]')).toBeNull()
    expect(h.posted.at(-1)).toEqual({
      message: {
        event: 'latchkey:export:error',
        data: { code: 'RECOVERY_REQUIRED', message: RECOVERY_REQUIRED_TEXT },
      },
      targetOrigin: HOST,
    })
  })

  it('reports blocked storage as WALLET_PROXY_UNAVAILABLE without calling the server', async () => {
    const h = await setup()
    const [eth] = await h.createHd(['ethereum'])
    vi.spyOn(h.store, 'get').mockRejectedValueOnce(
      new DOMException('The user denied permission to access the database.', 'UnknownError'),
    )
    const page = h.start()
    h.init({ entropy_id: eth?.entropy_id, chain_type: 'ethereum', wallet_index: 0 })
    expect(await page.outcome).toMatchObject({ status: 'error', code: 'WALLET_PROXY_UNAVAILABLE' })
    expect(h.server.calls.filter((c) => c.path.includes('auth_share'))).toHaveLength(0)
    expect(document.body.textContent).toContain('Unable to export this wallet')
  })

  it('reports a server refusal without showing keys', async () => {
    const h = await setup()
    const [eth] = await h.createHd(['ethereum'])
    const page = h.start()
    h.init({
      entropy_id: eth?.entropy_id,
      chain_type: 'ethereum',
      wallet_index: 0,
      access_token: 'user-mallory',
    })
    expect(await page.outcome).toMatchObject({ status: 'error', code: 'WALLET_NOT_FOUND' })
    expect(h.posted.at(-1)?.message.event).toBe('latchkey:export:error')
    expect(q('[data-action="copy-private-key"]')).toBeNull()
  })

  it('refuses a chain the wallet does not have', async () => {
    const h = await setup()
    const wallet = await h.importKey('ethereum', ETH_KEY)
    const page = h.start()
    h.init({ entropy_id: wallet.entropy_id, chain_type: 'solana' })
    expect(await page.outcome).toMatchObject({ status: 'error', code: 'INVALID_PAYLOAD' })
    expect(postedText(h.posted)).not.toContain(ETH_KEY.slice(2))
  })

  it('shows a fallback when the clipboard refuses, and posts nothing', async () => {
    const h = await setup()
    const [eth] = await h.createHd(['ethereum'])
    h.clipboard.writeText.mockRejectedValueOnce(new Error('NotAllowedError'))
    const page = h.start()
    h.init({ entropy_id: eth?.entropy_id, chain_type: 'ethereum', wallet_index: 0 })
    await page.outcome
    click('copy-private-key')
    await vi.waitFor(() =>
      expect(q('[data-action="copy-private-key"]')?.textContent).toMatch(/Copy failed/),
    )
    expect(h.posted.map((p) => p.message.event)).not.toContain('latchkey:export:copied')
  })

  it('follows the theme of the init message', async () => {
    const h = await setup()
    const [eth] = await h.createHd(['ethereum'])
    const page = h.start()
    h.init({ entropy_id: eth?.entropy_id, chain_type: 'ethereum', wallet_index: 0, theme: 'dark' })
    await page.outcome
    expect(document.body.style.getPropertyValue('color-scheme')).toBe('dark')
  })
})
