import { type FormEvent, useState } from 'react'
import type { Settings } from '../api.ts'
import { rawPatch } from '../settings-form.ts'

/** Every setting as JSON (chains, funding, OAuth, …): what the form does not cover. */
export function RawSettings(props: {
  settings: Settings
  save: (patch: Settings) => Promise<void>
}) {
  const [json, setJson] = useState(() => JSON.stringify(props.settings, null, 2))
  const [error, setError] = useState<string>()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    let edited: unknown
    try {
      edited = JSON.parse(json)
    } catch {
      setError('The settings are not valid JSON.')
      return
    }
    if (!edited || typeof edited !== 'object' || Array.isArray(edited)) {
      setError('The settings must be a JSON object.')
      return
    }
    setError(undefined)
    props
      .save(rawPatch(props.settings, edited as Settings))
      .catch((e: Error) => setError(e.message))
  }
  return (
    <form className="card" onSubmit={submit} aria-label="All settings as JSON">
      <h2>All settings (JSON)</h2>
      <p className="muted">The settings reference: docs/server.md &quot;App settings&quot;.</p>
      <textarea
        aria-label="Settings JSON"
        rows={16}
        spellCheck={false}
        value={json}
        onChange={(e) => setJson(e.target.value)}
      />
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button type="submit">Save JSON</button>
    </form>
  )
}
