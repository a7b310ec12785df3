import { z } from 'zod'
import { authModeSchema } from './common.ts'

/**
 * What the Telegram Login Widget hands back (callback object or the query
 * parameters of its redirect): https://core.telegram.org/widgets/login.
 * Every received field takes part in the signature, so fields Telegram may
 * add later are accepted (as strings or numbers) and checked too.
 */
export const telegramAuthResultSchema = z
  .object({
    id: z.union([z.number().int().positive(), z.string().regex(/^\d{1,20}$/)]),
    first_name: z.string().max(256).optional(),
    last_name: z.string().max(256).optional(),
    username: z.string().max(64).optional(),
    photo_url: z.string().max(2048).optional(),
    auth_date: z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,12}$/)]),
    hash: z.string().regex(/^[0-9a-f]{64}$/i),
  })
  .catchall(z.union([z.string().max(2048), z.number()]))
export type TelegramAuthResult = z.input<typeof telegramAuthResultSchema>

/** A Telegram Mini App's `initData`: the raw query string from `Telegram.WebApp.initData`. */
export const telegramWebAppDataSchema = z.string().min(1).max(8192)

const telegramPayload = {
  telegram_auth_result: telegramAuthResultSchema.optional(),
  telegram_web_app_data: telegramWebAppDataSchema.optional(),
  /** Captcha token, when the app enables captcha. */
  captcha_token: z.string().max(4096).optional(),
}
const exactlyOne = (v: { telegram_auth_result?: unknown; telegram_web_app_data?: unknown }) =>
  (v.telegram_auth_result === undefined) !== (v.telegram_web_app_data === undefined)
const exactlyOneMessage = {
  message: 'Send exactly one of telegram_auth_result and telegram_web_app_data',
}

export const telegramAuthenticateRequestSchema = z
  .object({ ...telegramPayload, mode: authModeSchema.default('login-or-sign-up') })
  .refine(exactlyOne, exactlyOneMessage)
export type TelegramAuthenticateRequest = z.input<typeof telegramAuthenticateRequestSchema>

export const telegramLinkRequestSchema = z
  .object(telegramPayload)
  .refine(exactlyOne, exactlyOneMessage)
export type TelegramLinkRequest = z.input<typeof telegramLinkRequestSchema>

export const telegramUnlinkRequestSchema = z.object({
  telegram_user_id: z.union([z.string().regex(/^\d{1,20}$/), z.number().int().positive()]),
})
export type TelegramUnlinkRequest = z.input<typeof telegramUnlinkRequestSchema>
