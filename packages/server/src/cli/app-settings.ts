import type { Kysely } from 'kysely'
import { getAppById, updateAppSettings } from '../apps/service.ts'
import type { Database } from '../db/types.ts'

export interface AppSettingsCommandParameters {
  db: Kysely<Database>
  appId: string
  /** `--set JSON`: the settings to merge; without it the settings are printed. */
  set: string | undefined
  out: (line: string) => void
  err: (line: string) => void
}

/**
 * `latchkey apps settings ID [--set JSON]`: prints the app's settings, or
 * merges a JSON object into them (apps/service.ts `updateAppSettings`, which
 * refuses unknown keys and invalid values) and prints the result. Returns the
 * exit code; an invalid value throws (the CLI prints it).
 *
 * @example
 * await appSettingsCommand({ db, appId, set: '{"mfa_methods":["totp"]}', out: console.log, err: console.error })
 */
export async function appSettingsCommand(
  parameters: AppSettingsCommandParameters,
): Promise<number> {
  const { db, appId, set, out, err } = parameters
  if (set === undefined) {
    const app = await getAppById(db, appId)
    if (!app) {
      err(`No app ${appId}`)
      return 1
    }
    out(JSON.stringify(app.settings, null, 2))
    return 0
  }
  let patch: unknown
  try {
    patch = JSON.parse(set)
  } catch {
    err('--set needs a JSON object, e.g. \'{"require_users_accept_terms":true}\'')
    return 1
  }
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) {
    err('--set needs a JSON object')
    return 1
  }
  const settings = await updateAppSettings(db, appId, patch as Record<string, unknown>)
  out(JSON.stringify(settings, null, 2))
  out(`Updated the settings of app ${appId} (a running server applies them within 5 s)`)
  return 0
}
