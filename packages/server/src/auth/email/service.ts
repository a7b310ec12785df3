import { isPlusEmail, normalizeEmail } from '@latchkey/protocol'
import { type AppRecord, toAppConfig } from '../../apps/service.ts'
import { ApiError } from '../../errors.ts'
import type { CodeChannel } from '../code/service.ts'
import { EMAIL_ACCOUNT_TYPE } from './schema.ts'

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string,
  )

/** Refuses when the app switched email login off (spec 01 §8 "Not allowed"). */
export function assertEmailAllowed(app: AppRecord): void {
  if (!toAppConfig(app).login_methods.email) throw new ApiError('LOGIN_METHOD_NOT_ALLOWED')
}

/** The login-code email (subject, text, minimal HTML). */
export function loginCodeEmail(
  appName: string,
  code: string,
): { subject: string; text: string; html: string } {
  const subject = `Your ${appName} login code is ${code}`
  const text = `Your ${appName} login code is ${code}.\n\nIt expires in 10 minutes. If you did not ask for it, ignore this email.`
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif"><p>Your ${escapeHtml(appName)} login code is</p><p style="font-size:28px;font-weight:600;letter-spacing:4px">${code}</p><p style="color:#666">It expires in 10 minutes. If you did not ask for it, ignore this email.</p></body></html>`
  return { subject, text, html }
}

/**
 * Email login as a code channel (../code/service.ts): the identifier is the
 * lowercased address. `disable_plus_emails` refuses new addresses only, so
 * an account made before the app turned it on still logs in.
 */
export const emailChannel: CodeChannel<'email'> = {
  accountType: EMAIL_ACCOUNT_TYPE,
  noun: 'email address',
  noneToUpdate: 'NO_EMAIL_TO_UPDATE',
  assertAllowed: assertEmailAllowed,
  identify(_services, app, address, use) {
    if (use === 'new' && toAppConfig(app).disable_plus_emails && isPlusEmail(address))
      throw new ApiError('PLUS_EMAIL_NOT_ALLOWED')
    return normalizeEmail(address)
  },
  accountData: (address) => ({ address }),
  otpChannel: () => 'email',
  async deliver(services, app, { to, code }) {
    await services.email.send({ to, appId: app.id, ...loginCodeEmail(app.name, code) })
  },
  deliveryFailure: (error) => ({
    detail: (error as Error).name,
    refusal: new ApiError('EMAIL_DELIVERY_FAILED'),
  }),
}
