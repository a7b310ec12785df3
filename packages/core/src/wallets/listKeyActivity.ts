import { routes } from '@latchkey/protocol/routes'
import type { KeyActivityResponse, KeyReleaseWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'

/** One release of key material to one of the user's sessions (docs/wallets.md "Key activity"). */
export interface KeyRelease {
  id: string
  /** `auth_share`: signing or export; `recovery`: the recovery material (a new device). */
  kind: 'auth_share' | 'recovery'
  entropyId: string
  createdAt: Date
  /** The session the material went to. */
  sessionId: string
  /** Null until enclave-bound release proofs exist. */
  enclaveKeyThumbprint: string | null
  ip: string | null
  userAgent: string | null
}

export interface ListKeyActivityParameters {
  /** Rows per page: 1 to 100 (default 20). */
  limit?: number
  /** `nextCursor` of the previous page. */
  cursor?: string
}

export interface ListKeyActivityReturnType {
  activity: KeyRelease[]
  /** Pass it as `cursor` for the next page; null on the last one. */
  nextCursor: string | null
}

const toKeyRelease = (row: KeyReleaseWire): KeyRelease => ({
  id: row.id,
  kind: row.kind,
  entropyId: row.entropy_id,
  createdAt: new Date(row.created_at * 1000),
  sessionId: row.session_id,
  enclaveKeyThumbprint: row.enclave_key_thumbprint,
  ip: row.ip,
  userAgent: row.user_agent,
})

/**
 * The logged-in user's key activity: each time the server released the
 * auth share (signing, export) or the recovery material to one of their
 * sessions, newest first. Throws NOT_AUTHENTICATED when logged out.
 *
 * @example
 * const { activity, nextCursor } = await listKeyActivity(client, { limit: 10 })
 * activity[0] // { kind: 'auth_share', createdAt: Date, ip: '203.0.113.7', … }
 */
export async function listKeyActivity(
  client: LatchkeyClient,
  parameters: ListKeyActivityParameters = {},
): Promise<ListKeyActivityReturnType> {
  const query = new URLSearchParams()
  if (parameters.limit !== undefined) query.set('limit', String(parameters.limit))
  if (parameters.cursor) query.set('cursor', parameters.cursor)
  const search = query.toString() ? `?${query}` : ''
  const page = await client.authedRequest<KeyActivityResponse>(
    `${routes.embeddedWalletsKeyActivity}${search}`,
  )
  return { activity: page.data.map(toKeyRelease), nextCursor: page.next_cursor }
}
