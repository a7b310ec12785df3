import type { Locator, Page } from 'playwright-core'
import { typeCode } from './browser.ts'

/**
 * 'Manage MFA' → authenticator app in the demo: reads the setup key on
 * screen, types `code(secret)` as the user's app would show it, closes the
 * modal, and returns the secret.
 */
export async function enrollAuthenticatorApp(
  page: Page,
  dialog: Locator,
  code: (secret: string) => string | Promise<string>,
): Promise<string> {
  await page.getByRole('button', { name: 'Manage MFA' }).click()
  await dialog.getByRole('button', { name: 'Continue' }).click()
  await dialog.getByRole('button', { name: /^Authenticator app/ }).click()
  await dialog.getByRole('button', { name: 'Show setup key' }).click()
  const secret = ((await dialog.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '')
  await dialog.getByRole('button', { name: 'Continue' }).click()
  await dialog.getByRole('heading', { name: 'Enter enrollment code' }).waitFor()
  await typeCode(page, await code(secret))
  await dialog.getByRole('heading', { name: 'Authenticator app added' }).waitFor()
  await dialog.getByRole('button', { name: 'Done' }).click()
  await dialog.getByRole('button', { name: 'Done' }).click()
  await dialog.waitFor({ state: 'detached' })
  return secret
}
