import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import type { SolanaSignInInput, SolanaSignInOutput } from '@solana/wallet-standard-features'
import { createSignInMessageText, verifySignIn } from '@solana/wallet-standard-util'
import type { Wallet } from '@wallet-standard/base'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { type Hex, verifyMessage, verifyTypedData } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from './browser.ts'
import { installTestEthereumWallet } from './wallets/ethereum.ts'
import { installTestSolanaWallet } from './wallets/solana.ts'

// A made-up origin served by Playwright itself: the wallets need no real server.
const ORIGIN = 'https://app.test'
const BLANK = '<!doctype html><title>blank</title>'
/** A dapp that collects EIP-6963 announcements as soon as it loads. */
const EIP6963_APP = `<!doctype html><script>
  window.announced = []
  window.addEventListener('eip6963:announceProvider', (event) => window.announced.push(event.detail))
  window.dispatchEvent(new Event('eip6963:requestProvider'))
</script>`
/** A dapp that does what @wallet-standard/app's getWallets does. */
const WALLET_STANDARD_APP = `<!doctype html><script>
  window.registered = []
  const api = Object.freeze({ register: (...wallets) => { window.registered.push(...wallets); return () => {} } })
  window.addEventListener('wallet-standard:register-wallet', ({ detail: callback }) => callback(api))
  window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api }))
</script>`

const TYPED_DATA = {
  domain: {
    name: 'Ether Mail',
    version: '1',
    chainId: 1,
    verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
  },
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
} as const

let browser: Browser
let context: BrowserContext
beforeAll(async () => {
  browser = await launchChromium()
})
afterEach(async () => {
  await context?.close()
})
afterAll(async () => {
  await browser?.close()
})

/** A fresh page whose `https://app.test/*` requests are answered with `html`. */
async function newPage(html = BLANK): Promise<Page> {
  context = await browser.newContext()
  const page = await context.newPage()
  await page.route(`${ORIGIN}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: html }),
  )
  return page
}

type RpcOutcome = { result: unknown } | { error: { code: unknown; message: unknown } }

/** Calls `request` on the wallet the page found by EIP-6963 with `rdns`, as a dapp does. */
function rpc(page: Page, method: string, params?: unknown, rdns = 'io.latchkey.testwallet') {
  return page.evaluate(
    async ({ method, params, rdns }) => {
      type Provider = { request(args: { method: string; params?: unknown }): Promise<unknown> }
      const found: Provider[] = []
      const collect = (event: Event) => {
        const detail = (event as CustomEvent<{ info: { rdns: string }; provider: Provider }>).detail
        if (detail.info.rdns === rdns) found.push(detail.provider)
      }
      window.addEventListener('eip6963:announceProvider', collect)
      window.dispatchEvent(new Event('eip6963:requestProvider'))
      window.removeEventListener('eip6963:announceProvider', collect)
      const provider = found[0]
      if (!provider) throw new Error(`no provider announced with rdns ${rdns}`)
      try {
        return {
          result: await provider.request(params === undefined ? { method } : { method, params }),
        }
      } catch (error) {
        const { code, message } = error as { code: unknown; message: unknown }
        return { error: { code, message } }
      }
    },
    { method, params, rdns },
  ) as Promise<RpcOutcome>
}

/** Subscribes to provider events in the page; they are collected in `window.providerEvents`. */
function recordProviderEvents(page: Page) {
  return page.evaluate(() => {
    type Provider = { on(event: string, listener: (payload: unknown) => void): void }
    const events: Array<[string, unknown]> = []
    ;(window as unknown as { providerEvents: typeof events }).providerEvents = events
    const subscribe = (event: Event) => {
      const { provider } = (event as CustomEvent<{ provider: Provider }>).detail
      for (const name of ['accountsChanged', 'chainChanged', 'connect', 'disconnect'])
        provider.on(name, (payload) => events.push([name, payload]))
    }
    window.addEventListener('eip6963:announceProvider', subscribe)
    window.dispatchEvent(new Event('eip6963:requestProvider'))
    window.removeEventListener('eip6963:announceProvider', subscribe)
  })
}

const providerEvents = (page: Page) =>
  page.evaluate(() => (window as unknown as { providerEvents: unknown[] }).providerEvents)

describe('test Ethereum wallet (EIP-6963)', () => {
  it('announces itself with its info on load and whenever the page asks', async () => {
    const page = await newPage(EIP6963_APP)
    const wallet = await installTestEthereumWallet(page, { name: 'Test Wallet' })
    await page.goto(`${ORIGIN}/`)
    const announced = await page.evaluate(() =>
      (
        window as unknown as {
          announced: Array<{ info: Record<string, string>; provider: object }>
        }
      ).announced.map((d) => ({
        info: { ...d.info },
        frozen: Object.isFrozen(d),
        hasRequest: typeof (d.provider as { request?: unknown }).request === 'function',
      })),
    )
    // Once when the wallet loaded (before the app listened: not seen), once on the app's request.
    expect(announced).toEqual([{ info: wallet.info, frozen: true, hasRequest: true }])
    expect(wallet.info).toMatchObject({ name: 'Test Wallet', rdns: 'io.latchkey.testwallet' })
    expect(wallet.info.uuid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
    expect(wallet.info.icon).toMatch(/^data:image\/svg\+xml;base64,/)

    // A wallet installed into a page that is already listening announces itself on load.
    const second = await installTestEthereumWallet(page, {
      name: 'Second',
      rdns: 'io.example.second',
    })
    const names = await page.evaluate(() =>
      (window as unknown as { announced: Array<{ info: { name: string } }> }).announced.map(
        (d) => d.info.name,
      ),
    )
    expect(names).toEqual(['Test Wallet', 'Second'])
    expect(
      (await rpc(page, 'eth_requestAccounts', undefined, 'io.example.second')) as unknown,
    ).toEqual({
      result: [second.address],
    })
    expect(wallet.requests).toEqual([])
  })

  it('connects, reports chain and accounts, and signs with the real key', async () => {
    const page = await newPage()
    const wallet = await installTestEthereumWallet(page)
    await page.goto(`${ORIGIN}/`)
    await recordProviderEvents(page)

    expect(await rpc(page, 'eth_accounts')).toEqual({ result: [] })
    expect(await rpc(page, 'eth_chainId')).toEqual({ result: '0x1' })
    // Signing before connecting is not authorized.
    expect(await rpc(page, 'personal_sign', ['0x68656c6c6f', wallet.address])).toMatchObject({
      error: { code: 4100 },
    })
    expect(await rpc(page, 'eth_requestAccounts')).toEqual({ result: [wallet.address] })
    expect(await rpc(page, 'eth_accounts')).toEqual({ result: [wallet.address] })
    expect(wallet.connected).toBe(true)

    const text = 'Sign in to Latchkey\nNonce: 12345678'
    const signedText = await rpc(page, 'personal_sign', [text, wallet.address])
    expect(signedText).toHaveProperty('result')
    const textSignature = (signedText as { result: Hex }).result
    expect(
      await verifyMessage({ address: wallet.address, message: text, signature: textSignature }),
    ).toBe(true)

    // 0x-hex messages are signed as the bytes they encode.
    const hex = '0xdeadbeef' as const
    const signedHex = (await rpc(page, 'personal_sign', [hex, wallet.address])) as { result: Hex }
    expect(
      await verifyMessage({
        address: wallet.address,
        message: { raw: hex },
        signature: signedHex.result,
      }),
    ).toBe(true)
    expect(
      await verifyMessage({ address: wallet.address, message: hex, signature: signedHex.result }),
    ).toBe(false)

    const signedTyped = (await rpc(page, 'eth_signTypedData_v4', [
      wallet.address,
      JSON.stringify(TYPED_DATA),
    ])) as { result: Hex }
    // Verified without the EIP712Domain entry: viem derives it from the domain.
    const { EIP712Domain: _, ...types } = TYPED_DATA.types
    expect(
      await verifyTypedData({
        ...TYPED_DATA,
        types,
        address: wallet.address,
        signature: signedTyped.result,
      }),
    ).toBe(true)

    expect(await rpc(page, 'eth_sendTransaction', [{}])).toMatchObject({ error: { code: 4200 } })
    expect(await providerEvents(page)).toEqual([['accountsChanged', [wallet.address]]])
    expect(wallet.requests.map((r) => r.method)).toEqual([
      'eth_accounts',
      'eth_chainId',
      'personal_sign',
      'eth_requestAccounts',
      'eth_accounts',
      'personal_sign',
      'personal_sign',
      'eth_signTypedData_v4',
      'eth_sendTransaction',
    ])
    expect(wallet.requests[5]).toEqual({ method: 'personal_sign', params: [text, wallet.address] })

    // The permission outlives the page, as an extension's does.
    await page.reload()
    expect(await rpc(page, 'eth_accounts')).toEqual({ result: [wallet.address] })
  })

  it('switches to known chains, answers 4902 for unknown ones until they are added', async () => {
    const page = await newPage()
    const wallet = await installTestEthereumWallet(page)
    await page.goto(`${ORIGIN}/`)
    await recordProviderEvents(page)

    expect(await rpc(page, 'wallet_switchEthereumChain', [{ chainId: '0x2105' }])).toEqual({
      result: null,
    })
    expect(await rpc(page, 'eth_chainId')).toEqual({ result: '0x2105' })

    const unknown = await rpc(page, 'wallet_switchEthereumChain', [{ chainId: '0x89' }])
    expect(unknown).toMatchObject({ error: { code: 4902 } })
    expect(typeof (unknown as { error: { message: unknown } }).error.message).toBe('string')
    expect(await rpc(page, 'eth_chainId')).toEqual({ result: '0x2105' })

    expect(
      await rpc(page, 'wallet_addEthereumChain', [
        {
          chainId: '0x89',
          chainName: 'Polygon',
          nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 },
          rpcUrls: ['https://polygon-rpc.com'],
        },
      ]),
    ).toEqual({ result: null })
    expect(await rpc(page, 'wallet_switchEthereumChain', [{ chainId: '0x89' }])).toEqual({
      result: null,
    })
    expect(await rpc(page, 'eth_chainId')).toEqual({ result: '0x89' })
    expect(wallet.chainId).toBe(137)
    expect(await providerEvents(page)).toEqual([
      ['chainChanged', '0x2105'],
      ['chainChanged', '0x89'],
    ])
  })

  it('rejects as told: connect once with 4001, then signatures', async () => {
    const page = await newPage()
    const wallet = await installTestEthereumWallet(page, { behaviour: { rejectConnect: 1 } })
    await page.goto(`${ORIGIN}/`)

    expect(await rpc(page, 'eth_requestAccounts')).toEqual({
      error: { code: 4001, message: 'User rejected the request.' },
    })
    expect(await rpc(page, 'eth_accounts')).toEqual({ result: [] })
    expect(await rpc(page, 'eth_requestAccounts')).toEqual({ result: [wallet.address] })

    wallet.setBehaviour({ rejectSign: true, signDelayMs: 200 })
    const started = Date.now()
    expect(await rpc(page, 'personal_sign', ['hello', wallet.address])).toEqual({
      error: { code: 4001, message: 'User rejected the request.' },
    })
    expect(Date.now() - started).toBeGreaterThanOrEqual(190)
    wallet.setBehaviour({ rejectSign: false, signDelayMs: 0 })
    const signed = (await rpc(page, 'personal_sign', ['hello', wallet.address])) as { result: Hex }
    expect(
      await verifyMessage({ address: wallet.address, message: 'hello', signature: signed.result }),
    ).toBe(true)
  })

  it('emits events the test asks for, and can be window.ethereum too', async () => {
    const page = await newPage()
    const wallet = await installTestEthereumWallet(page, { legacyInjected: true, chainId: 10 })
    await page.goto(`${ORIGIN}/`)
    await recordProviderEvents(page)

    const legacy = await page.evaluate(async () => {
      const ethereum = (
        window as unknown as {
          ethereum: { request(args: { method: string }): Promise<unknown> }
        }
      ).ethereum
      return ethereum.request({ method: 'eth_requestAccounts' })
    })
    expect(legacy).toEqual([wallet.address])

    await wallet.emit('chainChanged', 8453)
    await wallet.emit('accountsChanged', [])
    await wallet.emit('disconnect')
    expect(await providerEvents(page)).toEqual([
      ['accountsChanged', [wallet.address]],
      ['chainChanged', '0x2105'],
      ['accountsChanged', []],
      ['disconnect', { code: 4900, message: 'The provider is disconnected from all chains.' }],
    ])
    expect(wallet.connected).toBe(false)
    expect(await rpc(page, 'eth_accounts')).toEqual({ result: [] })
    expect(await rpc(page, 'eth_chainId')).toEqual({ result: '0x2105' })
  })
})

/** The Wallet Standard wallets the page's app registered, by name. */
const registeredNames = (page: Page) =>
  page.evaluate(() => (window as unknown as { registered: Wallet[] }).registered.map((w) => w.name))

type SolanaOutcome<T> = { result: T } | { error: { code: unknown; message: unknown } }

/** Runs `feature.method(...inputs)` on the registered wallet called `name`; bytes travel as number arrays. */
function callSolana<T>(
  page: Page,
  name: string,
  feature: string,
  inputs: unknown[],
): Promise<SolanaOutcome<T>> {
  return page.evaluate(
    async ({ name, feature, inputs }) => {
      const wallet = (window as unknown as { registered: Wallet[] }).registered.find(
        (w) => w.name === name,
      )
      if (!wallet) throw new Error(`${name} is not registered`)
      const method = feature.split(':')[1] === 'events' ? 'on' : feature.split(':')[1]
      const api = (wallet.features as Record<string, Record<string, unknown>>)[feature]
      if (!api) throw new Error(`${name} has no ${feature}`)
      // Number arrays under `message` / `transaction` are bytes; `account: true` is the wallet's account.
      const revive = (input: unknown) => {
        if (!input || typeof input !== 'object') return input
        const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) }
        for (const key of ['message', 'transaction'])
          if (Array.isArray(copy[key])) copy[key] = new Uint8Array(copy[key] as number[])
        if (copy.account === true) copy.account = wallet.accounts[0]
        return copy
      }
      const plain = (value: unknown): unknown => {
        if (value instanceof Uint8Array) return Array.from(value)
        if (Array.isArray(value)) return value.map(plain)
        if (value && typeof value === 'object')
          return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
        return value
      }
      try {
        const fn = api[method as string] as (...args: unknown[]) => Promise<unknown>
        return { result: plain(await fn(...inputs.map(revive))) }
      } catch (error) {
        const { code, message } = error as { code: unknown; message: unknown }
        return { error: { code, message } }
      }
    },
    { name, feature, inputs },
  ) as Promise<SolanaOutcome<T>>
}

type PlainAccount = { address: string; publicKey: number[]; chains: string[]; features: string[] }

describe('test Solana wallet (Wallet Standard)', () => {
  it('registers with an app that loads after it and with one that was there first', async () => {
    // Wallet first: its register-wallet event goes unheard; the app's app-ready event registers it.
    const page = await newPage(WALLET_STANDARD_APP)
    const wallet = await installTestSolanaWallet(page)
    await page.goto(`${ORIGIN}/`)
    expect(await registeredNames(page)).toEqual(['Test Solana Wallet'])

    // App first: a wallet installed into the running app registers through its register-wallet event.
    const second = await installTestSolanaWallet(page, { name: 'Late Wallet' })
    expect(await registeredNames(page)).toEqual(['Test Solana Wallet', 'Late Wallet'])
    expect(second.address).not.toBe(wallet.address)

    const shape = await page.evaluate(() => {
      const w = (window as unknown as { registered: Wallet[] }).registered[0] as Wallet
      return {
        version: w.version,
        name: w.name,
        icon: w.icon,
        chains: [...w.chains],
        features: Object.fromEntries(
          Object.entries(w.features).map(([k, v]) => [k, (v as { version: string }).version]),
        ),
        accounts: w.accounts.length,
      }
    })
    expect(shape).toEqual({
      version: '1.0.0',
      name: 'Test Solana Wallet',
      icon: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
      chains: ['solana:mainnet', 'solana:devnet'],
      features: {
        'standard:connect': '1.0.0',
        'standard:disconnect': '1.0.0',
        'standard:events': '1.0.0',
        'solana:signIn': '1.0.0',
        'solana:signMessage': '1.0.0',
      },
      accounts: 0,
    })
  })

  it('signs in with a SIWS message verifySignIn accepts', async () => {
    const page = await newPage(WALLET_STANDARD_APP)
    const wallet = await installTestSolanaWallet(page)
    await page.goto(`${ORIGIN}/`)

    const input: SolanaSignInInput = {
      statement: 'Sign in to the Latchkey demo',
      uri: `${ORIGIN}/`,
      version: '1',
      chainId: 'mainnet',
      nonce: 'a1b2c3d4e5f6',
      issuedAt: new Date().toISOString(),
      resources: ['https://latchkey.io/terms', 'https://latchkey.io/privacy'],
    }
    const outcome = await callSolana<
      Array<{
        account: PlainAccount
        signedMessage: number[]
        signature: number[]
        signatureType: string
      }>
    >(page, 'Test Solana Wallet', 'solana:signIn', [input])
    if (!('result' in outcome)) throw new Error(`signIn failed: ${JSON.stringify(outcome)}`)
    const [signed] = outcome.result
    if (!signed) throw new Error('no output')
    expect(signed.account).toEqual({
      address: wallet.address,
      publicKey: [...wallet.publicKey],
      chains: ['solana:mainnet', 'solana:devnet'],
      features: ['solana:signIn', 'solana:signMessage'],
    })
    expect(signed.signatureType).toBe('ed25519')

    const signedMessage = Uint8Array.from(signed.signedMessage)
    const signature = Uint8Array.from(signed.signature)
    // The wallet filled in the domain (the page's host) and the address.
    expect(new TextDecoder().decode(signedMessage)).toBe(
      createSignInMessageText({ ...input, domain: 'app.test', address: wallet.address }),
    )
    expect(new TextDecoder().decode(signedMessage)).toMatch(
      /^app\.test wants you to sign in with your Solana account:\n/,
    )
    const output: SolanaSignInOutput = {
      account: {
        address: wallet.address,
        publicKey: Uint8Array.from(signed.account.publicKey),
        chains: ['solana:mainnet'],
        features: [],
      },
      signedMessage,
      signature,
    }
    expect(verifySignIn({ ...input, domain: 'app.test', address: wallet.address }, output)).toBe(
      true,
    )
    expect(verifySignIn({ ...input, nonce: 'another' }, output)).toBe(false)
    expect(ed25519.verify(signature, signedMessage, base58.decode(wallet.address))).toBe(true)

    // Signing in connected the wallet.
    expect(wallet.connected).toBe(true)
    expect(
      await page.evaluate(
        () => (window as unknown as { registered: Wallet[] }).registered[0]?.accounts.length,
      ),
    ).toBe(1)
    expect(wallet.requests).toEqual([
      { method: 'solana:signIn', params: { inputs: [input], host: 'app.test' } },
    ])
  })

  it('connects (rejecting once as told), signs messages, emits change, and reconnects silently', async () => {
    const page = await newPage(WALLET_STANDARD_APP)
    const wallet = await installTestSolanaWallet(page, { behaviour: { rejectConnect: 1 } })
    await page.goto(`${ORIGIN}/`)
    await page.evaluate(() => {
      const changes: number[] = []
      ;(window as unknown as { changes: number[] }).changes = changes
      const w = (window as unknown as { registered: Wallet[] }).registered[0] as Wallet
      const events = w.features['standard:events'] as {
        on(e: 'change', l: (p: { accounts?: readonly unknown[] }) => void): () => void
      }
      events.on('change', ({ accounts }) => changes.push(accounts?.length ?? -1))
    })
    const changes = () => page.evaluate(() => (window as unknown as { changes: number[] }).changes)

    // Signing before connecting is not authorized.
    expect(
      await callSolana(page, 'Test Solana Wallet', 'solana:signMessage', [
        { account: { address: wallet.address }, message: [1, 2, 3] },
      ]),
    ).toMatchObject({ error: { code: 4100 } })

    expect(await callSolana(page, 'Test Solana Wallet', 'standard:connect', [])).toEqual({
      error: { code: 4001, message: 'User rejected the request.' },
    })
    const connected = await callSolana<{ accounts: PlainAccount[] }>(
      page,
      'Test Solana Wallet',
      'standard:connect',
      [],
    )
    expect(connected).toMatchObject({ result: { accounts: [{ address: wallet.address }] } })
    expect(await changes()).toEqual([1])

    const message = new TextEncoder().encode('Hello from the test wallet')
    const signed = await callSolana<Array<{ signedMessage: number[]; signature: number[] }>>(
      page,
      'Test Solana Wallet',
      'solana:signMessage',
      [{ account: true, message: [...message] }],
    )
    if (!('result' in signed)) throw new Error(`signMessage failed: ${JSON.stringify(signed)}`)
    const [first] = signed.result
    expect(first?.signedMessage).toEqual([...message])
    expect(ed25519.verify(Uint8Array.from(first?.signature ?? []), message, wallet.publicKey)).toBe(
      true,
    )

    wallet.setBehaviour({ rejectSign: 1 })
    expect(
      await callSolana(page, 'Test Solana Wallet', 'solana:signMessage', [
        { account: true, message: [...message] },
      ]),
    ).toEqual({ error: { code: 4001, message: 'User rejected the request.' } })

    // A new page load: the wallet starts with no accounts, and a silent connect restores them.
    await page.reload()
    expect(
      await callSolana<{ accounts: unknown[] }>(page, 'Test Solana Wallet', 'standard:connect', [
        { silent: true },
      ]),
    ).toMatchObject({ result: { accounts: [{ address: wallet.address }] } })
    await callSolana(page, 'Test Solana Wallet', 'standard:disconnect', [])
    expect(wallet.connected).toBe(false)
    expect(
      await callSolana(page, 'Test Solana Wallet', 'standard:connect', [{ silent: true }]),
    ).toEqual({ result: { accounts: [] } })
    expect(wallet.requests.map((r) => r.method)).toEqual([
      'solana:signMessage',
      'standard:connect',
      'standard:connect',
      'solana:signMessage',
      'solana:signMessage',
      'standard:connect',
      'standard:disconnect',
      'standard:connect',
    ])
  })

  it('signs transactions when the feature is on', async () => {
    const page = await newPage(WALLET_STANDARD_APP)
    const wallet = await installTestSolanaWallet(page, { features: { signTransaction: true } })
    await page.goto(`${ORIGIN}/`)
    await callSolana(page, 'Test Solana Wallet', 'standard:connect', [])

    // A legacy transfer-shaped message: header, [fee payer, system program], blockhash, one instruction.
    const systemProgram = new Uint8Array(32)
    const message = Uint8Array.from([
      1,
      0,
      1,
      2,
      ...wallet.publicKey,
      ...systemProgram,
      ...new Uint8Array(32).fill(7),
      1,
      1,
      1,
      0,
      4,
      2,
      0,
      0,
      0,
    ])
    const unsigned = Uint8Array.from([1, ...new Uint8Array(64), ...message])
    const outcome = await callSolana<Array<{ signedTransaction: number[] }>>(
      page,
      'Test Solana Wallet',
      'solana:signTransaction',
      [{ account: true, transaction: [...unsigned] }],
    )
    if (!('result' in outcome))
      throw new Error(`signTransaction failed: ${JSON.stringify(outcome)}`)
    const signedTransaction = Uint8Array.from(outcome.result[0]?.signedTransaction ?? [])
    expect(signedTransaction.subarray(65)).toEqual(message)
    expect(ed25519.verify(signedTransaction.subarray(1, 65), message, wallet.publicKey)).toBe(true)

    // v0: the same message behind a version prefix and with an empty lookup-table list.
    const v0 = Uint8Array.from([0x80, ...message, 0])
    const v0Outcome = await callSolana<Array<{ signedTransaction: number[] }>>(
      page,
      'Test Solana Wallet',
      'solana:signTransaction',
      [{ account: true, transaction: [1, ...new Uint8Array(64), ...v0] }],
    )
    if (!('result' in v0Outcome)) throw new Error(`v0 failed: ${JSON.stringify(v0Outcome)}`)
    const signedV0 = Uint8Array.from(v0Outcome.result[0]?.signedTransaction ?? [])
    expect(ed25519.verify(signedV0.subarray(1, 65), v0, wallet.publicKey)).toBe(true)
  })
})
