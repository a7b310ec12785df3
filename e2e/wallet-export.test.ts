import type { Browser } from 'playwright-core'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail } from './browser.ts'

const { serverUrl, demoUrl } = inject('e2e')

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

describe('exporting an embedded wallet (security bar 44)', () => {
  it('shows the key and phrase only inside the enclave page, and both restore the same address', async () => {
    const page = await browser.newPage()
    const email = uniqueEmail('export')
    const dialog = await logInToDemo(page, { serverUrl, demoUrl }, email)
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    const address = (await page.getByTestId('wallet-ethereum-0').locator('code').innerText()).trim()

    await page.getByRole('button', { name: 'Export wallet', exact: true }).click()
    const exportFrame = page.frameLocator('iframe[title="Export your wallet"]')
    await exportFrame
      .getByText('Never share your private key or seed phrase with anyone.')
      .waitFor({ timeout: 30_000 })
    await exportFrame.getByText(address, { exact: false }).first().waitFor()

    await exportFrame.locator('[data-action="reveal-private-key"]').click()
    const privateKey = (
      await exportFrame.locator('[data-part="private-key-value"]').innerText()
    ).trim()
    expect(privateKeyToAccount(privateKey as `0x${string}`).address).toBe(address)

    await exportFrame.locator('[data-action="reveal-seed-phrase"]').click()
    const phrase = (await exportFrame.locator('[data-part="seed-phrase-value"]').innerText()).trim()
    expect(phrase.split(/\s+/)).toHaveLength(12)
    expect(mnemonicToAccount(phrase).address).toBe(address)

    // The host page holds neither: the export page is another origin.
    const hostText = await page.evaluate(() => document.documentElement.outerHTML)
    expect(hostText).not.toContain(privateKey.slice(2))
    expect(hostText).not.toContain(phrase)
    await page.close()
  })

  it('Escape pressed inside the export page closes the dialog (issue 16, item 7a)', async () => {
    const page = await browser.newPage()
    const dialog = await logInToDemo(page, { serverUrl, demoUrl }, uniqueEmail('export-escape'))
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })

    await page.getByRole('button', { name: 'Export wallet', exact: true }).click()
    const exportFrame = page.frameLocator('iframe[title="Export your wallet"]')
    const reveal = exportFrame.locator('[data-action="reveal-private-key"]')
    await reveal.waitFor({ timeout: 30_000 })
    // Focus inside the cross-origin frame: the host page's keydown never sees this Escape.
    await reveal.focus()
    expect(await reveal.evaluate((button) => document.activeElement === button)).toBe(true)
    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    await expect
      .poll(() => page.getByTestId('wallet-result').textContent())
      .toContain('Export: closed')
    await page.close()
  })
})
