import type { Kysely } from 'kysely'
import type { Database } from '../db/types.ts'
import { type MfaResetSummary, resetUserMfa, summarizeMfaReset } from '../mfa/reset.ts'

export interface MfaResetCommandParameters {
  db: Kysely<Database>
  userId: string
  /** `--yes`: reset; without it the command only says what would go. */
  yes: boolean
  /** Epoch ms, for which sessions are still live (default `Date.now()`). */
  now?: number
  out: (line: string) => void
  err: (line: string) => void
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

const describeSummary = (s: MfaResetSummary) =>
  `MFA methods ${s.methods.length ? s.methods.join(', ') : '(none)'}; ` +
  `${plural(s.liveSessions, 'live session')} ended`

/**
 * `latchkey users mfa-reset USER_ID [--yes]`: without `--yes`, prints what
 * would be removed and exits 1 asking for `--yes`; with it, removes every MFA
 * factor of the user and ends their sessions (mfa/reset.ts). An unknown user
 * is exit 1. Returns the exit code.
 *
 * @example
 * await mfaResetCommand({ db, userId: 'did:latchkey:…', yes: true, out: console.log, err: console.error })
 */
export async function mfaResetCommand(parameters: MfaResetCommandParameters): Promise<number> {
  const { db, userId, yes, out, err } = parameters
  const now = parameters.now ?? Date.now()
  const summary = await summarizeMfaReset(db, userId, now)
  if (!summary) {
    err(`No user ${userId}`)
    return 1
  }
  if (!yes) {
    out(`Would reset MFA of user ${userId} of app ${summary.appId}: ${describeSummary(summary)}.`)
    err(
      'Nothing was changed. Check who is asking first: the reset takes away the second factor ' +
        "that protects the user's wallet. Run the command again with --yes to reset.",
    )
    return 1
  }
  await resetUserMfa(db, userId, now)
  out(`Reset MFA of user ${userId} of app ${summary.appId}: ${describeSummary(summary)}.`)
  return 0
}
