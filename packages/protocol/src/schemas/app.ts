import { z } from 'zod'
import { mfaMethodSchema } from './common.ts'
import { fundingConfigSchema } from './funding.ts'
import { smartWalletConfigSchema } from './smart-wallet.ts'

export const createOnLoginSchema = z.enum(['all-users', 'users-without-wallets', 'off'])

/** Which login methods the app allows (server-side switches, spec 01 §3). */
export const loginMethodSwitchesSchema = z.object({
  email: z.boolean(),
  sms: z.boolean(),
  wallet: z.boolean(),
  google: z.boolean(),
  apple: z.boolean(),
  discord: z.boolean(),
  github: z.boolean(),
  linkedin: z.boolean(),
  spotify: z.boolean(),
  instagram: z.boolean(),
  twitter: z.boolean(),
  tiktok: z.boolean(),
  line: z.boolean(),
  telegram: z.boolean(),
  farcaster: z.boolean(),
  passkey: z.boolean(),
  guest: z.boolean(),
})
export type LoginMethodSwitches = z.infer<typeof loginMethodSwitchesSchema>

/** "App configuration from the server" (spec 01 §3), as `GET /api/v1/apps/:id` returns it. */
export const appConfigSchema = z.object({
  id: z.string(),
  name: z.string(),
  logo_url: z.string().nullable(),
  accent_color: z.string().nullable(),
  login_methods: loginMethodSwitchesSchema,
  terms_and_conditions_url: z.string().nullable(),
  privacy_policy_url: z.string().nullable(),
  require_users_accept_terms: z.boolean(),
  disable_plus_emails: z.boolean(),
  /** The passkey button also offers 'Create new account' (the host's `loginConfig` wins). */
  passkeys_for_signup_enabled: z.boolean(),
  captcha_enabled: z.boolean(),
  /** Turnstile site key; null for ALTCHA or when captcha is off. */
  captcha_site_key: z.string().nullable(),
  /** Which captcha runs (docs/captcha.md); null when captcha_enabled is false. */
  captcha_provider: z.enum(['turnstile', 'altcha']).nullable(),
  allowlist_config: z.object({
    error_title: z.string().nullable(),
    error_detail: z.string().nullable(),
    error_cta_text: z.string().nullable(),
    error_cta_link: z.string().nullable(),
  }),
  embedded_wallet_config: z.object({
    create_on_login: z.object({ ethereum: createOnLoginSchema, solana: createOnLoginSchema }),
    require_user_owned_recovery_on_create: z.boolean(),
    user_owned_recovery_options: z.array(z.enum(['user-passcode', 'google-drive', 'icloud'])),
    mode: z.enum(['user-controlled-server-wallets-only', 'legacy-embedded-wallets-only']),
  }),
  /** Funding (spec 03 "Funding"; docs/funding.md): null when funding is off. */
  funding_config: fundingConfigSchema.nullable(),
  /** MFA methods users of the app may enroll (spec 02 §3 `mfa.methods`; docs/mfa.md). */
  mfa_methods: z.array(mfaMethodSchema),
  /** Null unless the app set up Telegram login (bot credentials and this config). */
  telegram_auth_config: z
    .object({
      bot_id: z.string(),
      bot_name: z.string(),
      link_enabled: z.boolean(),
      seamless_auth_enabled: z.boolean(),
    })
    .nullable(),
  whatsapp_enabled: z.boolean(),
  /** Smart wallets (docs/smart-wallets.md): null when the app has them off. */
  smart_wallet_config: smartWalletConfigSchema.nullable().default(null),
})
export type AppConfig = z.infer<typeof appConfigSchema>
