import { type FormEvent, useState } from 'react'
import type { Settings } from '../api.ts'
import {
  ALLOWLIST_TYPES,
  type AllowlistTextField,
  FUNDING_ASSETS,
  type MoreFields,
  moreFieldsOf,
  morePatchOf,
  RECOVERY_OPTIONS,
  WALLET_MODES,
} from '../more-settings.ts'
import { CredentialFields } from './CredentialFields.tsx'

type TextKey = 'chains' | 'fundingAmount' | 'captchaSiteKey' | 'moonpayKey' | AllowlistTextField
type CheckKey =
  | 'requireRecoveryOnCreate'
  | 'fundingEnabled'
  | 'fundingBridging'
  | 'moonpaySandbox'
  | 'disablePlusEmails'
  | 'whatsappEnabled'
  | 'passkeySignup'

/**
 * Allowlist entries and rejection texts, chains, the embedded-wallet mode and
 * recovery, funding and login switches; Save
 * merges what changed. The credentials these need (backups, MoonPay, Coinbase,
 * Turnstile) sit beside them and save on their own buttons (CredentialFields).
 */
export function MoreSettingsForm(props: {
  appId: string
  settings: Settings
  save: (patch: Settings) => Promise<void>
}) {
  const [fields, setFields] = useState<MoreFields>(() => moreFieldsOf(props.settings))
  const [error, setError] = useState<string>()
  const set = <K extends keyof MoreFields>(key: K, value: MoreFields[K]) =>
    setFields((f) => ({ ...f, [key]: value }))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setError(undefined)
    props.save(morePatchOf(fields, props.settings)).catch((e: Error) => setError(e.message))
  }
  const text = (key: TextKey, label: string, placeholder?: string) => (
    <label>
      {label}
      <input
        value={fields[key]}
        placeholder={placeholder}
        onChange={(e) => set(key, e.target.value)}
      />
    </label>
  )
  const check = (key: CheckKey, label: string) => (
    <label className="check">
      <input type="checkbox" checked={fields[key]} onChange={(e) => set(key, e.target.checked)} />
      {label}
    </label>
  )
  return (
    <form className="card" onSubmit={submit} aria-label="Wallets, funding and access">
      <h2>More settings</h2>
      <fieldset>
        <legend>Allowlist</legend>
        <label>
          One a line: type and value ({ALLOWLIST_TYPES.join(', ')})
          <textarea
            rows={4}
            spellCheck={false}
            value={fields.allowlistEntries}
            placeholder="email_domain @example.com"
            onChange={(e) => set('allowlistEntries', e.target.value)}
          />
        </label>
        <p className="muted">Shown to someone the list refuses (empty: the modal's own wording):</p>
        {text('allowlistErrorTitle', 'Refusal title', "You don't have access to this app")}
        {text('allowlistErrorDetail', 'Refusal detail', 'Have you been invited?')}
        {text('allowlistErrorCtaText', 'Refusal button text', 'Try another account')}
        {text(
          'allowlistErrorCtaLink',
          'Refusal button link (empty: back to the login)',
          'https://example.com/waitlist',
        )}
      </fieldset>
      <fieldset>
        <legend>Chains</legend>
        {text('chains', 'EVM chain ids for wallet login (empty: the default)', '1, 8453')}
      </fieldset>
      <fieldset>
        <legend>Wallet recovery</legend>
        <label>
          Embedded wallet mode (server wallets only: automatic recovery only)
          <select value={fields.walletMode} onChange={(e) => set('walletMode', e.target.value)}>
            {WALLET_MODES.map((mode) => (
              <option key={mode}>{mode}</option>
            ))}
          </select>
        </label>
        {RECOVERY_OPTIONS.map((option) => (
          <label key={option} className="check">
            <input
              type="checkbox"
              checked={fields.recoveryOptions.includes(option)}
              onChange={(e) =>
                set(
                  'recoveryOptions',
                  e.target.checked
                    ? [...fields.recoveryOptions, option]
                    : fields.recoveryOptions.filter((x) => x !== option),
                )
              }
            />
            {option}
          </label>
        ))}
        {check('requireRecoveryOnCreate', 'Require a user-owned recovery when a wallet is created')}
        <CredentialFields appId={props.appId} providers={['google-drive', 'icloud']} />
      </fieldset>
      <fieldset>
        <legend>Funding</legend>
        {check('fundingEnabled', 'Funding on')}
        {text('fundingAmount', 'Default amount (empty: 0.01)', '0.01')}
        <label>
          Default asset
          <select value={fields.fundingAsset} onChange={(e) => set('fundingAsset', e.target.value)}>
            {FUNDING_ASSETS.map((asset) => (
              <option key={asset}>{asset}</option>
            ))}
          </select>
        </label>
        {check('fundingBridging', 'Bridge from the other chain')}
        <label>
          Options, one a line in order: method and provider (card moonpay, card coinbase, exchange
          coinbase, wallets, manual; empty: the default)
          <textarea
            rows={4}
            spellCheck={false}
            value={fields.fundingOptions}
            placeholder="card moonpay"
            onChange={(e) => set('fundingOptions', e.target.value)}
          />
        </label>
        {text('moonpayKey', 'MoonPay publishable key (empty: none)', 'pk_live_…')}
        {check('moonpaySandbox', 'MoonPay sandbox key')}
        <CredentialFields appId={props.appId} providers={['moonpay', 'coinbase-onramp']} />
      </fieldset>
      <fieldset>
        <legend>Login options</legend>
        {check('disablePlusEmails', 'Refuse email addresses with a +tag')}
        {check('whatsappEnabled', 'Codes by WhatsApp')}
        {check('passkeySignup', 'New accounts with a passkey')}
        {text('captchaSiteKey', 'Turnstile site key')}
        <CredentialFields appId={props.appId} providers={['turnstile']} />
      </fieldset>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button type="submit">Save more settings</button>
    </form>
  )
}
