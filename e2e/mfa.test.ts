import { generate } from 'otplib'
import type { CDPSession, Locator, Page } from 'playwright-core'
import { verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  launchChromium,
  logInToDemo,
  readSmsCode,
  typeCode,
  uniqueEmail,
  walletAddress,
} from './browser.ts'

// MFA in Chromium (issue 18; spec 02 "Multi-factor verification", "enrollment
// and management"; docs/mfa.md): one user, one page, in order — enroll an
// authenticator app from the setup key on screen (codes computed with otplib),
// sign inside the window the setup opened, sign on a new session (the
// verification over the sign screen: a wrong code, then the right one), enroll
// a passkey (Chromium's virtual authenticator) and verify with it, enroll SMS
// through the dev outbox, and the 4-attempt limit of one operation.

const { serverUrl, demoUrl, mfaAppId } = inject('e2e')
// WebAuthn refuses an IP address as RP ID: the demo on localhost (an allowed origin of the app).
const origin = demoUrl.replace('127.0.0.1', 'localhost')
// The server on localhost too: the enclave frame must be same-site with the page to keep its
// IndexedDB (Chromium blocks a cross-site frame's storage).
const apiUrl = serverUrl.replace('127.0.0.1', 'localhost')
const pageUrl = `${origin}/?appId=${mfaAppId}&apiUrl=${encodeURIComponent(apiUrl)}`
const MESSAGE = 'Hello from the Latchkey demo'
const email = uniqueEmail('mfa')
const PHONE = '+14155550142'

/** The authenticator app's code for `secret`, `offset` 30-second steps from now. */
const totp = (secret: string, offset = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 })

let page: Page
let dialog: Locator
let cdp: CDPSession
let secret = ''
let address = ''
let closeBrowser: () => Promise<void>

beforeAll(async () => {
  const browser = await launchChromium()
  closeBrowser = () => browser.close()
  const context = await browser.newContext()
  page = await context.newPage()
  cdp = await context.newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  dialog = await logInToDemo(page, { serverUrl, demoUrl: pageUrl }, email)
  await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
  await dialog.waitFor({ state: 'detached', timeout: 10_000 })
  address = await walletAddress(page, 'wallet-ethereum-0')
})
afterAll(async () => {
  await closeBrowser?.()
})

/** 'Sign message' in the demo; `verify` runs while the verification is up. */
async function signMessage(verify?: () => Promise<void>): Promise<string> {
  await page.getByRole('button', { name: 'Sign message', exact: true }).click()
  await dialog.getByRole('button', { name: 'Sign and continue' }).click()
  await verify?.()
  await dialog.waitFor({ state: 'detached', timeout: 30_000 })
  const result = page
    .getByTestId('wallet-result')
    .filter({ hasText: 'Ethereum signature:' })
    .locator('code')
  await result.waitFor({ timeout: 30_000 })
  return ((await result.textContent()) ?? '').trim()
}

const signedByWallet = async (signature: string) =>
  verifyMessage({
    address: address as `0x${string}`,
    message: MESSAGE,
    signature: signature as `0x${string}`,
  })

/** A new session on the same device: log out and in again (its MFA window starts closed). */
async function newSession() {
  await page.getByRole('button', { name: 'Log out' }).click()
  dialog = await logInToDemo(page, { serverUrl, demoUrl: pageUrl }, email)
  await dialog.waitFor({ state: 'detached', timeout: 30_000 })
  await page.getByTestId('wallet-ethereum-0').waitFor()
}

const openMfa = async () => {
  await page.getByRole('button', { name: 'Manage MFA' }).click()
  await dialog.getByRole('heading', { name: 'Transaction Protection' }).waitFor()
  await dialog.getByRole('button', { name: 'Continue' }).click()
  await dialog.getByRole('heading', { name: 'Choose a verification method' }).waitFor()
}
const method = (name: string) => dialog.getByRole('button', { name: new RegExp(`^${name}`) })

describe('MFA in the demo', () => {
  it('enrolls an authenticator app with a code computed from the setup key on screen', async () => {
    await openMfa()
    await method('Authenticator app').click()
    await dialog.getByRole('heading', { name: 'Scan QR code' }).waitFor()
    const qr = await dialog.getByRole('img', { name: /QR code/i }).boundingBox()
    expect(qr?.width).toBe(240)
    const key = dialog.getByTestId('totp-secret')
    expect(await key.textContent()).not.toMatch(/[A-Z2-7]{16}/)
    await dialog.getByRole('button', { name: 'Show setup key' }).click()
    secret = ((await key.textContent()) ?? '').replace(/\s+/g, '')
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await dialog.getByRole('heading', { name: 'Enter enrollment code' }).waitFor()
    await typeCode(page, await totp(secret))
    await dialog.getByRole('heading', { name: 'Authenticator app added' }).waitFor()
    await dialog.getByRole('button', { name: 'Done' }).click()
    await dialog.getByText('Enabled').waitFor()
    await dialog.getByRole('button', { name: 'Done' }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect(page.getByTestId('mfa-methods').textContent()).resolves.toBe('Authenticator app')
  })

  it('signs inside the window the setup opened, without asking again', async () => {
    expect(await signedByWallet(await signMessage())).toBe(true)
  })

  it('asks on a new session, over the sign screen: a wrong code, then the right one', async () => {
    await newSession()
    const signature = await signMessage(async () => {
      await dialog.getByRole('heading', { name: 'Enter verification code' }).waitFor()
      const wrong = (await totp(secret, 1)) === '000000' ? '111111' : '000000'
      await typeCode(page, wrong)
      await dialog.getByText('The code you entered is not valid').waitFor()
      await dialog
        .getByRole('textbox', { name: 'Digit 1 of 6' })
        .and(page.locator('[value=""]'))
        .waitFor()
      // The next step's code: the setup's code of this step is spent (each code works once).
      await typeCode(page, await totp(secret, 1))
    })
    expect(await signedByWallet(signature)).toBe(true)
  })

  it('enables the one linked passkey for verification, then verifies with it on a new session', async () => {
    await page.getByRole('button', { name: 'Link passkey', exact: true }).click()
    await page.getByTestId('passkey-count').filter({ hasText: '1 of 5' }).waitFor()
    await openMfa()
    await method('Passkey').click()
    await dialog.getByRole('heading', { name: 'Passkey verification added' }).waitFor()
    await dialog.getByRole('button', { name: 'Done' }).click()
    await dialog.getByRole('button', { name: 'Done' }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect(page.getByTestId('mfa-methods').textContent()).resolves.toBe(
      'Authenticator app, Passkey',
    )

    await newSession()
    const signature = await signMessage(async () => {
      await dialog.getByRole('heading', { name: 'Verify your identity' }).waitFor()
      await dialog.getByRole('button', { name: /^Passkey/ }).click()
    })
    expect(await signedByWallet(signature)).toBe(true)
  })

  it('enrolls SMS with the code the dev outbox received', async () => {
    await openMfa()
    await method('SMS').click()
    await dialog.getByRole('heading', { name: 'Set up SMS verification' }).waitFor()
    const sentAfter = Math.floor(Date.now() / 1000) - 1
    await dialog.getByRole('textbox', { name: 'Phone number' }).fill(PHONE.slice(2))
    await dialog.getByRole('button', { name: 'Continue with SMS' }).click()
    await dialog.getByRole('heading', { name: 'Enter enrollment code' }).waitFor()
    await typeCode(page, await readSmsCode(serverUrl, PHONE, sentAfter))
    await dialog.getByRole('heading', { name: 'SMS verification added' }).waitFor()
    await dialog.getByRole('button', { name: 'Done' }).click()
    await dialog.getByRole('button', { name: 'Done' }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect(page.getByTestId('mfa-methods').textContent()).resolves.toBe(
      'Authenticator app, SMS, Passkey',
    )
  })

  it('ends one signature after four wrong codes with the maximum-attempts message', async () => {
    await newSession()
    await page.getByRole('button', { name: 'Sign message', exact: true }).click()
    await dialog.getByRole('button', { name: 'Sign and continue' }).click()
    await dialog.getByRole('heading', { name: 'Verify your identity' }).waitFor()
    await dialog.getByRole('button', { name: /^Authenticator app/ }).click()
    const valid = await Promise.all([-1, 0, 1, 2].map((offset) => totp(secret, offset)))
    const wrong = ['000000', '111111', '222222', '333333', '444444', '555555'].filter(
      (code) => !valid.includes(code),
    )
    for (const code of wrong.slice(0, 3)) {
      await typeCode(page, code)
      await dialog.getByText('The code you entered is not valid').waitFor()
      await dialog
        .getByRole('textbox', { name: 'Digit 1 of 6' })
        .and(page.locator('[value=""]'))
        .waitFor()
    }
    await typeCode(page, wrong[3] as string)
    await dialog
      .getByText(
        'You have exceeded the maximum number of attempts. Please close this window and try again in 10 seconds.',
      )
      .first()
      .waitFor()
  })
})
