import { allowlistEntrySchema, normalizeWalletName } from '@latchkey/protocol'
import { z } from 'zod'

// The allowlist setting's own check (docs/access-control.md "Allowlist"),
// apart from the login-time matching (users/allowlist.ts): the app settings
// validate with it and need nothing of users.

const normalizePhone = (value: string) => `+${value.replace(/\D+/g, '')}`
const isEvmAddress = (value: string) => /^0x[0-9a-fA-F]{40}$/.test(value)

const allowlistSettingsSchema = z.strictObject({
  enabled: z.boolean().optional(),
  entries: z.array(allowlistEntrySchema).max(10_000).optional(),
})

/**
 * Checks `settings.allowlist` when an app is created or updated; throws an
 * Error naming the bad field (apps/service.ts, like custom_auth). Each
 * entry's value must be of its kind: an email, a domain, a phone number
 * with its country code, an EVM or Solana address, a wallet name.
 */
export function assertAllowlistSettings(value: unknown): void {
  const parsed = allowlistSettingsSchema.safeParse(value)
  if (!parsed.success)
    throw new Error(
      `Invalid allowlist: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'allowlist'}: ${i.message}`).join('; ')}`,
    )
  for (const [index, entry] of (parsed.data.entries ?? []).entries()) {
    const v = entry.value.trim()
    const ok =
      entry.type === 'email'
        ? /^[^\s@]+@[^\s@]+$/.test(v)
        : entry.type === 'email_domain'
          ? /^@?[^\s@]+\.[^\s@]+$/.test(v)
          : entry.type === 'phone'
            ? /^\+?[\d\s().-]+$/.test(v) && normalizePhone(v).length >= 5
            : entry.type === 'wallet_address'
              ? isEvmAddress(v) || /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(v)
              : normalizeWalletName(v).length > 0
    if (!ok)
      throw new Error(
        `Invalid allowlist: entries.${index}: not a valid ${entry.type}: ${entry.value}`,
      )
  }
}

/** An http(s) page; the modal's button opens it (docs/access-control.md). */
const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const { protocol } = new URL(value)
      return protocol === 'https:' || protocol === 'http:'
    } catch {
      return false
    }
  }, 'must be an http(s) URL')

// The rejection screen's texts (spec 01 §3 allowlist_config); null or absent: the modal's own.
const allowlistConfigSchema = z.strictObject({
  error_title: z.string().max(200).nullable().optional(),
  error_detail: z.string().max(1000).nullable().optional(),
  error_cta_text: z.string().max(200).nullable().optional(),
  error_cta_link: httpUrl.nullable().optional(),
})

/**
 * Checks `settings.allowlist_config` when an app is created or updated:
 * strings or null (they reach every browser as `allowlist_config` of the
 * app config, whose schema wants nothing else) and an http(s) button link.
 */
export function assertAllowlistConfig(value: unknown): void {
  const parsed = allowlistConfigSchema.safeParse(value)
  if (!parsed.success)
    throw new Error(
      `Invalid allowlist_config: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'allowlist_config'}: ${i.message}`).join('; ')}`,
    )
}
