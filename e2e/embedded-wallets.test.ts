import { routes } from '@latchkey/protocol'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import type { Browser, Page } from 'playwright-core'
import { verifyMessage, verifyTypedData } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, signInDemo, uniqueEmail, walletAddress } from './browser.ts'

const { serverUrl, demoUrl } = inject('e2e')
const MESSAGE = 'Hello from the Latchkey demo'
// The demo's EIP-712 example (apps/demo/src/components/Wallets.tsx).
const MAIL = {
  domain: {
    name: 'Ether Mail',
    version: '1',
    chainId: 1,
    verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
  },
  types: {
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
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

const logIn = (page: Page, email: string) => logInToDemo(page, { serverUrl, demoUrl }, email)

describe('embedded wallets in the demo', () => {
  it('creates an Ethereum and a Solana wallet on login, signs with both, and recovers them on a new device', async () => {
    const email = uniqueEmail('wallet')
    const context = await browser.newContext()
    const page = await context.newPage()
    const dialog = await logIn(page, email)
    await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })

    const ethereum = await walletAddress(page, 'wallet-ethereum-0')
    const solana = await walletAddress(page, 'wallet-solana-0')
    expect(ethereum).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(solana).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    await expect(page.getByTestId('wallet-ethereum-0').innerText()).resolves.toContain(
      'Recoverable',
    )

    const signature = await signInDemo(page, 'Sign message', 'Ethereum signature')
    expect(
      await verifyMessage({
        address: ethereum as `0x${string}`,
        message: MESSAGE,
        signature: signature as `0x${string}`,
      }),
    ).toBe(true)

    const typedSignature = await signInDemo(page, 'Sign typed data', 'Typed data signature')
    expect(
      await verifyTypedData({
        ...MAIL,
        address: ethereum as `0x${string}`,
        signature: typedSignature as `0x${string}`,
      }),
    ).toBe(true)

    const solanaSignature = await signInDemo(page, 'Solana sign message', 'Solana signature')
    expect(
      ed25519.verify(
        base64.decode(solanaSignature),
        new TextEncoder().encode(MESSAGE),
        base58.decode(solana),
      ),
    ).toBe(true)

    // Security bar 42: the host page cannot reach the enclave origin's storage.
    const hostView = await page.evaluate(async () => {
      const frame = document.querySelector(
        'iframe[title="Latchkey wallet"]',
      ) as HTMLIFrameElement | null
      let crossOriginBlocked = false
      try {
        const enclaveWindow = frame?.contentWindow as (Window & { indexedDB: IDBFactory }) | null
        if (!enclaveWindow) throw new Error('no enclave frame')
        void enclaveWindow.indexedDB.open('latchkey-enclave')
      } catch {
        crossOriginBlocked = true
      }
      const databases = (await indexedDB.databases()).map((d) => d.name)
      return { framed: !!frame, crossOriginBlocked, databases }
    })
    expect(hostView.framed).toBe(true)
    expect(hostView.crossOriginBlocked).toBe(true)
    expect(hostView.databases).not.toContain('latchkey-enclave')
    await context.close()

    // A new device: fresh storage, same user. Automatic recovery rebuilds the key.
    const fresh = await browser.newContext()
    const second = await fresh.newPage()
    const again = await logIn(second, email)
    await again.waitFor({ state: 'detached', timeout: 15_000 })
    expect(await walletAddress(second, 'wallet-ethereum-0')).toBe(ethereum)
    // Spec 03 "Connect wallet" (issue 17): the demo's Solana signing recovers the wallet first
    // (useRecoverWallet), behind the connect-wallet loader. The recovery answer is held until
    // the loader is seen, so a fast enclave cannot make the check miss it.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await fresh.route(`${serverUrl}${routes.embeddedWalletsRecovery}`, async (route) => {
      await held
      await route.continue()
    })
    const solanaAgain = signInDemo(second, 'Solana sign message', 'Solana signature')
    await second
      .getByRole('dialog')
      .getByRole('heading', { name: 'Connecting your wallet' })
      .waitFor({ timeout: 15_000 })
    release()
    await second.getByRole('dialog').waitFor({ state: 'detached', timeout: 15_000 })
    expect(
      ed25519.verify(
        base64.decode(await solanaAgain),
        new TextEncoder().encode(MESSAGE),
        base58.decode(solana),
      ),
    ).toBe(true)
    const recovered = await signInDemo(second, 'Sign message', 'Ethereum signature')
    expect(
      await verifyMessage({
        address: ethereum as `0x${string}`,
        message: MESSAGE,
        signature: recovered as `0x${string}`,
      }),
    ).toBe(true)
    await fresh.close()
  })
})
