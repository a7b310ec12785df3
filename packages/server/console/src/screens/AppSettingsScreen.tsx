import { useState } from 'react'
import { api, type Settings } from '../api.ts'
import type { Navigate } from '../route.ts'
import { useLoad } from '../use-load.ts'
import { MoreSettingsForm } from './MoreSettingsForm.tsx'
import { RawSettings } from './RawSettings.tsx'
import { SettingsForm } from './SettingsForm.tsx'
import { SignInSettingsForm } from './SignInSettingsForm.tsx'
import { SmartWalletsForm } from './SmartWalletsForm.tsx'
import { fail } from './shared.ts'

/** One app: its ids and origins, the common settings as a form, the rest as JSON. */
export function AppSettingsScreen(props: {
  appId: string
  navigate: Navigate
  onError: (error: Error) => void
}) {
  const { appId, navigate, onError } = props
  const loaded = useLoad(() => api.app(appId).catch(fail(onError)), appId)
  const [saved, setSaved] = useState(false)
  const app = loaded.data?.app
  if (loaded.error) return <p className="error">{loaded.error.message}</p>
  if (!app) return <p className="muted">Loading…</p>
  const save = (patch: Settings) => {
    setSaved(false)
    return api.updateSettings(appId, patch).then(() => {
      setSaved(true)
      loaded.reload()
    })
  }
  return (
    <>
      <h1>{app.name}</h1>
      <p className="muted">
        <code>{app.id}</code> · {app.origins.join(' ')} ·{' '}
        <button type="button" className="link" onClick={() => navigate({ screen: 'users', appId })}>
          Users
        </button>{' '}
        ·{' '}
        <button
          type="button"
          className="link"
          onClick={() => navigate({ screen: 'events', appId })}
        >
          Events
        </button>
      </p>
      {saved && (
        <p role="status" className="ok">
          Saved. A running server applies settings within 5 s.
        </p>
      )}
      <SettingsForm key={JSON.stringify(app.settings)} settings={app.settings} save={save} />
      <MoreSettingsForm
        key={`more${JSON.stringify(app.settings)}`}
        appId={appId}
        settings={app.settings}
        save={save}
      />
      <SmartWalletsForm
        key={`sw${JSON.stringify(app.settings)}`}
        appId={appId}
        settings={app.settings}
        save={save}
      />
      <SignInSettingsForm
        key={`sign-in${JSON.stringify(app.settings)}`}
        appId={appId}
        settings={app.settings}
        save={save}
      />
      <RawSettings key={`raw${JSON.stringify(app.settings)}`} settings={app.settings} save={save} />
    </>
  )
}
