import { routes } from '@latchkey/protocol'
import { solveChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import type { Challenge } from 'altcha-lib/types'
import { TEST_ORIGIN, type TestInstance } from '../test/instance.ts'

/** Fetches an ALTCHA challenge for `appId` as the widget does (plain GET, app id in the query). */
export async function fetchAltchaChallenge(t: TestInstance, appId = t.app.id): Promise<Challenge> {
  const res = await t.request(`${routes.captchaAltchaChallenge}?app_id=${appId}`, {
    appId: null,
    origin: TEST_ORIGIN,
  })
  if (res.status !== 200) throw new Error(`challenge failed: ${JSON.stringify(res.body)}`)
  return res.body as Challenge
}

/** Solves `challenge` for real and encodes the payload as the altcha widget submits it. */
export async function solveAltcha(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey })
  if (!solution) throw new Error('no ALTCHA solution found')
  const payload = {
    challenge: { parameters: challenge.parameters, signature: challenge.signature },
    solution,
  }
  return Buffer.from(JSON.stringify(payload)).toString('base64')
}

/** A fresh, really solved ALTCHA token for `appId`. */
export async function altchaToken(t: TestInstance, appId = t.app.id): Promise<string> {
  return solveAltcha(await fetchAltchaChallenge(t, appId))
}
