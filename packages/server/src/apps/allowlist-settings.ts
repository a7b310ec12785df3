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
