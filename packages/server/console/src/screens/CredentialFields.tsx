import { type KeyboardEvent, useState } from 'react'
import { api, type OtherCredentialProvider, type StoredCredential } from '../api.ts'
import {
  CREDENTIAL_SPECS,
  type CredentialField,
  type CredentialSpec,
  credentialInputOf,
  credentialStatusOf,
  credentialValuesOf,
  ICLOUD_ENVIRONMENTS,
} from '../credential-fields.ts'
import { useLoad } from '../use-load.ts'
import { Confirm } from './Confirm.tsx'

// Credential blocks set beside the settings they serve (backups under wallet
// recovery, Turnstile beside its site key, MoonPay and Coinbase under
// funding, the Farcaster signer under sign-in). Each block saves and removes
// its credentials at once through the credentials route, on its own buttons:
// the settings form around it does not send them. Secrets are write-only.

/** The credential blocks of `providers`, from one read of what is stored. */
export function CredentialFields(props: {
  appId: string
  providers: readonly OtherCredentialProvider[]
}) {
  const { appId, providers } = props
  const stored = useLoad(() => api.credentials(appId), `credentials:${appId}:${providers}`)
  // What this screen changed since the read (null: removed), so a change shows
  // without reading again and the other blocks keep what is typed in them.
  const [changes, setChanges] = useState<Record<string, StoredCredential | null>>({})
  const [done, setDone] = useState<{ provider: string; text: string }>()
  if (stored.error) return <p className="error">{stored.error.message}</p>
  if (!stored.data) return <p className="muted">Loading…</p>
  const byProvider = new Map(stored.data.credentials.map((c) => [c.provider, c]))
  const changed = (provider: string, text: string, now: StoredCredential | null) => {
    setChanges((c) => ({ ...c, [provider]: now }))
    setDone({ provider, text })
  }
  return (
    <>
      {providers.map((provider) => {
        const credential =
          changes[provider] === undefined
            ? byProvider.get(provider)
            : (changes[provider] ?? undefined)
        return (
          <CredentialBlock
            // A new stored half starts the block afresh: the typed secret is gone.
            key={`${provider}:${JSON.stringify(credential)}`}
            appId={appId}
            spec={CREDENTIAL_SPECS[provider]}
            stored={credential}
            done={done?.provider === provider ? done.text : undefined}
            changed={(text, now) => changed(provider, text, now)}
          />
        )
      })}
    </>
  )
}

function CredentialBlock(props: {
  appId: string
  spec: CredentialSpec
  stored: StoredCredential | undefined
  done: string | undefined
  changed: (text: string, now: StoredCredential | null) => void
}) {
  const { appId, spec, stored } = props
  const [values, setValues] = useState(() => credentialValuesOf(spec, stored))
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const run = async (action: () => Promise<StoredCredential | null>, text: string) => {
    setError(undefined)
    setBusy(true)
    try {
      const now = await action()
      // The typed secret is sent: clear it (the block may stay, its public half unchanged).
      setValues(credentialValuesOf(spec, now ?? undefined))
      props.changed(text, now)
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setBusy(false)
    }
  }
  const save = () =>
    run(
      () => api.setCredential(appId, credentialInputOf(spec, values)),
      `${spec.title} credentials saved. A running server applies them within 5 s.`,
    )
  const remove = () =>
    run(
      () => api.deleteCredential(appId, spec.provider).then(() => null),
      `${spec.title} credentials removed.`,
    )
  // Enter in a field saves this block, not the settings form around it.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' || (event.target as HTMLElement).tagName !== 'INPUT') return
    event.preventDefault()
    if (!busy) void save()
  }
  return (
    <fieldset onKeyDown={onKeyDown}>
      <legend>{spec.title} credentials</legend>
      <p className="muted">
        {credentialStatusOf(spec, stored)} ({spec.doc}). Saved on their own button, as{' '}
        <code>latchkey apps credentials set ID {spec.provider}</code> does.
      </p>
      {spec.fields.map((field) => (
        <FieldInput
          key={field.name}
          spec={spec}
          field={field}
          value={values[field.name] ?? ''}
          secretSet={stored !== undefined}
          onChange={(value) => setValues((v) => ({ ...v, [field.name]: value }))}
        />
      ))}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {props.done && (
        <p role="status" className="ok">
          {props.done}
        </p>
      )}
      <div className="row">
        <button type="button" disabled={busy} onClick={save}>
          Save {spec.title} credentials
        </button>
        {stored && <RemoveCredential what={`The ${spec.title} credentials`} onConfirm={remove} />}
      </div>
    </fieldset>
  )
}

/**
 * "Remove", then a Confirm box (as `latchkey apps credentials delete`): `what`
 * names the credential ("The Turnstile credentials").
 */
export function RemoveCredential(props: { what: string; onConfirm: () => void }) {
  const what = props.what.charAt(0).toLowerCase() + props.what.slice(1)
  return (
    <Confirm
      label="Remove"
      title={`Remove ${what}`}
      confirmLabel={`Remove ${what}`}
      onConfirm={props.onConfirm}
    >
      Remove {what} of this app? What needs it stops working until it is set again. This cannot be
      undone.
    </Confirm>
  )
}

function FieldInput(props: {
  spec: CredentialSpec
  field: CredentialField
  value: string
  secretSet: boolean
  onChange: (value: string) => void
}) {
  const { spec, field, value, onChange } = props
  const label = `${spec.title} ${field.label}`
  const secretPlaceholder = props.secretSet
    ? 'Set (empty: keep it)'
    : field.placeholder
      ? `Not set (${field.placeholder})`
      : 'Not set'
  if (field.kind === 'environment')
    return (
      <label>
        {label}
        <select value={value} onChange={(e) => onChange(e.target.value)}>
          {ICLOUD_ENVIRONMENTS.map((environment) => (
            <option key={environment}>{environment}</option>
          ))}
        </select>
      </label>
    )
  if (field.kind === 'pem')
    return (
      <label>
        {label}
        <textarea
          rows={4}
          spellCheck={false}
          autoComplete="off"
          value={value}
          placeholder={secretPlaceholder}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
    )
  return (
    <label>
      {label}
      <input
        type={field.kind === 'secret' ? 'password' : 'text'}
        autoComplete={field.kind === 'secret' ? 'new-password' : 'off'}
        spellCheck={false}
        value={value}
        placeholder={field.kind === 'secret' ? secretPlaceholder : field.placeholder}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  )
}
