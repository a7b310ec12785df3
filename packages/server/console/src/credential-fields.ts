import type { CredentialInput, OtherCredentialProvider, StoredCredential } from './api.ts'

// The credentials beyond sign-in as form fields (screens/CredentialFields.tsx),
// one block per provider, with the fields `latchkey apps credentials set`
// takes for it (cli/credential-flags.ts). The server validates them with the
// CLI's schemas (apps/credentials.ts), so a bad value shows its message.
// Secrets are write-only: their field starts empty, and empty keeps the
// stored one.

export interface CredentialField {
  /** The field of the route's body (`client_id`, `api_token`, …). */
  name: string
  label: string
  /** `secret`: write-only, sent only when typed; `pem`: a multi-line secret. */
  kind: 'text' | 'secret' | 'pem' | 'environment'
  placeholder?: string
}

export interface CredentialSpec {
  provider: OtherCredentialProvider
  /** What the block is called ("Google Drive backup"). */
  title: string
  fields: readonly CredentialField[]
  /** Where the feature is described. */
  doc: string
}

export const ICLOUD_ENVIRONMENTS = ['production', 'development'] as const

export const CREDENTIAL_SPECS: Record<OtherCredentialProvider, CredentialSpec> = {
  'google-drive': {
    provider: 'google-drive',
    title: 'Google Drive backup',
    doc: 'docs/server.md "Cloud recovery"',
    fields: [
      {
        name: 'client_id',
        label: 'OAuth client id',
        kind: 'text',
        placeholder: '….apps.googleusercontent.com',
      },
      { name: 'client_secret', label: 'client secret', kind: 'secret' },
    ],
  },
  icloud: {
    provider: 'icloud',
    title: 'iCloud backup',
    doc: 'docs/server.md "Cloud recovery"',
    fields: [
      {
        name: 'container_id',
        label: 'CloudKit container id',
        kind: 'text',
        placeholder: 'iCloud.com.example.app',
      },
      { name: 'environment', label: 'CloudKit environment', kind: 'environment' },
      { name: 'api_token', label: 'CloudKit API token', kind: 'secret' },
    ],
  },
  turnstile: {
    provider: 'turnstile',
    title: 'Turnstile',
    doc: 'docs/captcha.md',
    fields: [{ name: 'secret_key', label: 'secret key', kind: 'secret' }],
  },
  moonpay: {
    provider: 'moonpay',
    title: 'MoonPay',
    doc: 'docs/funding.md',
    fields: [{ name: 'secret_key', label: 'secret key', kind: 'secret', placeholder: 'sk_live_…' }],
  },
  'coinbase-onramp': {
    provider: 'coinbase-onramp',
    title: 'Coinbase Onramp',
    doc: 'docs/funding.md',
    fields: [
      {
        name: 'api_key_name',
        label: 'CDP API key name or id',
        kind: 'text',
        placeholder: 'organizations/…/apiKeys/…',
      },
      { name: 'api_key_secret', label: 'CDP API key secret (PEM or base64)', kind: 'pem' },
    ],
  },
  'farcaster-signer': {
    provider: 'farcaster-signer',
    title: 'Farcaster signer',
    doc: 'docs/farcaster-signer.md',
    fields: [
      { name: 'request_fid', label: "requesting FID (the app's fid)", kind: 'text' },
      { name: 'custody_key', label: 'custody key (0x private key or mnemonic)', kind: 'secret' },
    ],
  },
}

const isSecret = (field: CredentialField) => field.kind === 'secret' || field.kind === 'pem'

/** The fields as the block starts: the stored public half, the secrets empty. */
export function credentialValuesOf(
  spec: CredentialSpec,
  stored: StoredCredential | undefined,
): Record<string, string> {
  const storedValues = (stored ?? {}) as Record<string, string | undefined>
  return Object.fromEntries(
    spec.fields.map((field) => [
      field.name,
      isSecret(field)
        ? ''
        : (storedValues[field.name] ??
          (field.kind === 'environment' ? ICLOUD_ENVIRONMENTS[0] : '')),
    ]),
  )
}

/**
 * What Save sends: every public field trimmed, and a secret only when one was
 * typed (none keeps the stored one).
 *
 * @example
 * credentialInputOf(CREDENTIAL_SPECS['farcaster-signer'], { request_fid: ' 42 ', custody_key: '' })
 * // { provider: 'farcaster-signer', request_fid: '42' }
 */
export function credentialInputOf(
  spec: CredentialSpec,
  values: Record<string, string>,
): CredentialInput {
  const input: CredentialInput = { provider: spec.provider }
  for (const field of spec.fields) {
    const value = (values[field.name] ?? '').trim()
    if (!isSecret(field) || value) input[field.name] = value
  }
  return input
}

/** What a stored credential shows: its public fields ("Set: iCloud.com.example.app, production"). */
export function credentialStatusOf(
  spec: CredentialSpec,
  stored: StoredCredential | undefined,
): string {
  if (!stored) return 'Not set'
  const storedValues = stored as Record<string, string | undefined>
  const shown = spec.fields
    .filter((field) => !isSecret(field))
    .map((field) => storedValues[field.name])
    .filter(Boolean)
  return shown.length > 0 ? `Set: ${shown.join(', ')}` : 'Set'
}
