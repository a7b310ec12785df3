import { type FormEvent, useState } from 'react'
import { api, type Settings, type SignInCredential } from '../api.ts'
import {
  credentialChangesOf,
  OAUTH_PROVIDERS,
  type OAuthClientFields,
  type OAuthProviderName,
  publicIdsOf,
  type SignInFields,
  signInFieldsOf,
  signInPatchOf,
} from '../sign-in-settings.ts'
import { useLoad } from '../use-load.ts'
import { CredentialFields, RemoveCredential } from './CredentialFields.tsx'
import {
  CrossAppFields,
  CustomJwtFields,
  type SetField,
  TelegramFields,
} from './SignInSections.tsx'

/**
 * Sign-in providers: OAuth clients, custom JWT, cross-app sharing and
 * Telegram. Loads the credentials that are set (their public half), then
 * shows the fields.
 */
export function SignInSettingsForm(props: {
  appId: string
  settings: Settings
  save: (patch: Settings) => Promise<void>
}) {
  const { appId } = props
  const credentials = useLoad(() => api.signInCredentials(appId), `sign-in:${appId}`)
  const [removed, setRemoved] = useState<string>()
  if (credentials.error)
    return (
      <section className="card" aria-label="Sign-in providers">
        <h2>Sign-in providers</h2>
        <p className="error">{credentials.error.message}</p>
      </section>
    )
  if (!credentials.data) return <p className="muted">Loading…</p>
  return (
    <SignInForm
      {...props}
      credentials={credentials.data.credentials}
      removed={removed}
      onRemoved={(what) => {
        setRemoved(`${what} removed.`)
        credentials.reload()
      }}
    />
  )
}

function SignInForm(props: {
  appId: string
  settings: Settings
  credentials: SignInCredential[]
  save: (patch: Settings) => Promise<void>
  /** What was last removed, shown once the form is read again. */
  removed: string | undefined
  onRemoved: (what: string) => void
}) {
  const { appId, settings, credentials } = props
  const [fields, setFields] = useState<SignInFields>(() => signInFieldsOf(settings, credentials))
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const set: SetField = (key, value) => setFields((f) => ({ ...f, [key]: value }))
  const setClient = (provider: OAuthProviderName, change: Partial<OAuthClientFields>) =>
    setFields((f) => ({
      ...f,
      oauth: { ...f.oauth, [provider]: { ...f.oauth[provider], ...change } },
    }))
  const stored = publicIdsOf(credentials)
  // As `apps credentials delete`; the settings (e.g. the bot's) stay.
  const remove = (provider: string, what: string) => () => {
    setError(undefined)
    api.deleteCredential(appId, provider).then(
      () => props.onRemoved(what),
      (e: Error) => setError(e.message),
    )
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(undefined)
    setBusy(true)
    try {
      // Credentials first: a successful settings save reloads the screen, and
      // with it this form, so whatever may still fail must run before it.
      for (const change of credentialChangesOf(fields, credentials))
        await api.setSignInCredential(appId, change)
      await props.save(signInPatchOf(fields, settings, credentials))
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="card" onSubmit={submit} aria-label="Sign-in providers">
      <h2>Sign-in providers</h2>
      {props.removed && (
        <p role="status" className="ok">
          {props.removed}
        </p>
      )}
      <p className="muted">
        Switch each method on under Login methods above. An OAuth button shows only once its client
        is set. Secrets are never shown: leave a secret field empty to keep the one that is set.
      </p>
      <fieldset>
        <legend>OAuth clients</legend>
        <table aria-label="OAuth clients">
          <thead>
            <tr>
              <th>Provider</th>
              <th>Client id</th>
              <th>Client secret</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {OAUTH_PROVIDERS.map((provider) => (
              <tr key={provider}>
                <td>{provider}</td>
                <td>
                  <input
                    aria-label={`${provider} client id`}
                    value={fields.oauth[provider].clientId}
                    spellCheck={false}
                    onChange={(e) => setClient(provider, { clientId: e.target.value })}
                  />
                </td>
                <td>
                  <input
                    type="password"
                    autoComplete="new-password"
                    aria-label={`${provider} client secret`}
                    value={fields.oauth[provider].clientSecret}
                    placeholder={stored.has(provider) ? 'Set (empty: keep it)' : 'Not set'}
                    onChange={(e) => setClient(provider, { clientSecret: e.target.value })}
                  />
                </td>
                <td>
                  {stored.has(provider) && (
                    <RemoveCredential
                      what={`The ${provider} client`}
                      onConfirm={remove(provider, `The ${provider} client`)}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <label className="check">
          <input
            type="checkbox"
            checked={fields.returnProviderTokens}
            onChange={(e) => set('returnProviderTokens', e.target.checked)}
          />
          Return the provider&apos;s access and refresh tokens to the app after an OAuth login
        </label>
      </fieldset>
      <CustomJwtFields fields={fields} set={set} />
      <CrossAppFields appId={appId} fields={fields} set={set} />
      <TelegramFields fields={fields} set={set} tokenSet={stored.has('telegram')} />
      {stored.has('telegram') && (
        <RemoveCredential
          what="The Telegram bot"
          onConfirm={remove('telegram', 'The Telegram bot')}
        />
      )}
      <fieldset>
        <legend>Farcaster</legend>
        <p className="muted">
          Farcaster login has no app settings: switch it on under Login methods. The signer (an app
          key for a user&apos;s fid) needs the app&apos;s fid and custody key.
        </p>
        <CredentialFields appId={appId} providers={['farcaster-signer']} />
      </fieldset>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        Save sign-in providers
      </button>
    </form>
  )
}
