import { type FormEvent, useState } from 'react'
import type { Settings } from '../api.ts'
import {
  CREATE_ON_LOGIN,
  fieldsOf,
  LOGIN_METHODS,
  MFA_METHODS,
  patchOf,
  type SettingsFields,
} from '../settings-form.ts'

/** The common settings as form fields; Save merges only what changed. */
export function SettingsForm(props: {
  settings: Settings
  save: (patch: Settings) => Promise<void>
}) {
  const [fields, setFields] = useState<SettingsFields>(() => fieldsOf(props.settings))
  const [error, setError] = useState<string>()
  const set = <K extends keyof SettingsFields>(key: K, value: SettingsFields[K]) =>
    setFields((f) => ({ ...f, [key]: value }))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setError(undefined)
    props.save(patchOf(fields, props.settings)).catch((e: Error) => setError(e.message))
  }
  const text = (
    key: 'logoUrl' | 'accentColor' | 'termsUrl' | 'privacyUrl' | 'maxUsers',
    label: string,
  ) => (
    <label>
      {label}
      <input value={fields[key]} onChange={(e) => set(key, e.target.value)} />
    </label>
  )
  const check = (key: 'requireTerms' | 'allowlistEnabled' | 'captchaEnabled', label: string) => (
    <label className="check">
      <input type="checkbox" checked={fields[key]} onChange={(e) => set(key, e.target.checked)} />
      {label}
    </label>
  )
  const walletSelect = (key: 'createEthereum' | 'createSolana', label: string) => (
    <label>
      {label}
      <select value={fields[key]} onChange={(e) => set(key, e.target.value)}>
        {CREATE_ON_LOGIN.map((v) => (
          <option key={v}>{v}</option>
        ))}
      </select>
    </label>
  )
  return (
    <form className="card" onSubmit={submit} aria-label="Settings">
      <h2>Settings</h2>
      <fieldset>
        <legend>Login methods</legend>
        {LOGIN_METHODS.map((m) => (
          <label key={m} className="check">
            <input
              type="checkbox"
              checked={fields.loginMethods[m] ?? false}
              onChange={(e) =>
                set('loginMethods', { ...fields.loginMethods, [m]: e.target.checked })
              }
            />
            {m}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Branding</legend>
        {text('logoUrl', 'Logo URL')}
        {text('accentColor', 'Accent colour (#RRGGBB)')}
      </fieldset>
      <fieldset>
        <legend>Legal</legend>
        {text('termsUrl', 'Terms URL')}
        {text('privacyUrl', 'Privacy policy URL')}
        {check('requireTerms', 'Users must accept the terms')}
      </fieldset>
      <fieldset>
        <legend>Access</legend>
        {check('allowlistEnabled', 'Allowlist on (entries: under More settings)')}
        {text('maxUsers', 'User limit (empty: none)')}
        {check('captchaEnabled', 'Captcha on login')}
      </fieldset>
      <fieldset>
        <legend>MFA methods</legend>
        {MFA_METHODS.map((m) => (
          <label key={m} className="check">
            <input
              type="checkbox"
              checked={fields.mfaMethods.includes(m)}
              onChange={(e) =>
                set(
                  'mfaMethods',
                  e.target.checked
                    ? [...fields.mfaMethods, m]
                    : fields.mfaMethods.filter((x) => x !== m),
                )
              }
            />
            {m}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Embedded wallets created on login</legend>
        {walletSelect('createEthereum', 'Ethereum')}
        {walletSelect('createSolana', 'Solana')}
      </fieldset>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button type="submit">Save settings</button>
    </form>
  )
}
