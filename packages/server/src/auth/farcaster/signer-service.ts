import type { FarcasterSignerResponse, FarcasterSignerStatus } from '@latchkey/protocol'
import type { Hex } from 'viem'
import { getAppProviderCredentials } from '../../apps/credentials.ts'
import type { AppRecord } from '../../apps/service.ts'
import type { FarcasterSignersTable } from '../../db/types.ts'
import { ApiError } from '../../errors.ts'
import type { AuthContext, Services } from '../../http/context.ts'
import { FARCASTER_ACCOUNT_TYPE } from '../../users/accounts-wire.ts'
import {
  createFarcasterSignerApi,
  custodyAccount,
  DEFAULT_FARCASTER_API_URL,
  type SignedKeyRequest,
  signSignedKeyRequest,
} from './signer-api.ts'

/*
 * Farcaster signer (spec 03 §2, §4, §7; docs/farcaster-signer.md). The enclave
 * made an ed25519 key for the user; `init` asks Farcaster to add it to the
 * user's account with a signed key request signed by the app's requesting
 * FID, `status` reads whether the user approved it. Rows live in
 * `farcaster_signers`, one per (app, key), owned by one user.
 */

/** A request is signed valid for a day (Farcaster's own example); a new one is made when less than this is left. */
const REQUEST_LIFETIME_S = 24 * 60 * 60
const MIN_REMAINING_S = 10 * 60

type Row = FarcasterSignersTable

const apiOf = (services: Services) =>
  createFarcasterSignerApi(services.config.farcaster.apiUrl ?? DEFAULT_FARCASTER_API_URL)

function wire(
  row: Pick<Row, 'public_key' | 'status' | 'approval_url' | 'fid'>,
): FarcasterSignerResponse {
  return {
    public_key: row.public_key,
    status: row.status,
    signer_approval_url: row.status === 'pending_approval' ? row.approval_url : null,
    fid: row.fid === null ? null : Number(row.fid),
  }
}

/** Farcaster's state in spec 03's words; an approval needs the approving fid. */
function statusOf(request: SignedKeyRequest): FarcasterSignerStatus {
  if (request.state === 'revoked') return 'revoked'
  if ((request.state === 'approved' || request.state === 'completed') && request.userFid !== null)
    return 'approved'
  return 'pending_approval'
}

async function farcasterAccountOf(services: Services, auth: AuthContext) {
  return services.db
    .selectFrom('linked_accounts')
    .select(['id', 'identifier', 'data'])
    .where('user_id', '=', auth.userId)
    .where('app_id', '=', auth.appId)
    .where('type', '=', FARCASTER_ACCOUNT_TYPE)
    .executeTakeFirst()
}

/**
 * Starts (or resumes) the signed key request of `publicKey` for the signed-in
 * user, who must have a Farcaster account linked. An approved key answers as
 * is; a pending request with time left is reused; otherwise a new request is
 * signed with the app's custody key and posted to Farcaster.
 */
export async function initFarcasterSigner(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  publicKey: Hex,
): Promise<FarcasterSignerResponse> {
  if (!(await farcasterAccountOf(services, auth)))
    throw new ApiError('FARCASTER_SIGNER_CONNECT_FAILED', undefined, {
      reason: 'no_farcaster_account',
    })
  const existing = await services.db
    .selectFrom('farcaster_signers')
    .selectAll()
    .where('app_id', '=', app.id)
    .where('public_key', '=', publicKey)
    .executeTakeFirst()
  // A key is one user's: another user's init of the same key is refused.
  if (existing && existing.user_id !== auth.userId)
    throw new ApiError('FARCASTER_SIGNER_CONNECT_FAILED', undefined, { reason: 'key_taken' })
  const nowS = Math.floor(services.now() / 1000)
  if (existing?.status === 'approved') return wire(existing)
  if (existing?.status === 'pending_approval' && Number(existing.deadline) - nowS > MIN_REMAINING_S)
    return wire(existing)

  const credentials = await getAppProviderCredentials(services, app.id, 'farcaster-signer')
  if (!credentials) throw new ApiError('FARCASTER_SIGNER_NOT_CONFIGURED')
  const requestFid = Number(credentials.request_fid)
  const deadline = nowS + REQUEST_LIFETIME_S
  const signature = await signSignedKeyRequest(custodyAccount(credentials.custody_key), {
    requestFid: BigInt(credentials.request_fid),
    key: publicKey,
    deadline: BigInt(deadline),
  })
  const request = await apiOf(services).create({ key: publicKey, requestFid, signature, deadline })
  const now = services.now()
  const columns = {
    request_token: request.token,
    approval_url: request.deeplinkUrl,
    status: 'pending_approval' as const,
    fid: null,
    deadline,
    updated_at: now,
  }
  await services.db
    .insertInto('farcaster_signers')
    .values({
      app_id: app.id,
      public_key: publicKey,
      user_id: auth.userId,
      created_at: now,
      ...columns,
    })
    .onConflict((oc) =>
      oc
        .columns(['app_id', 'public_key'])
        .doUpdateSet(columns)
        .where('farcaster_signers.user_id', '=', auth.userId),
    )
    .execute()
  return wire({ public_key: publicKey, ...columns })
}

/**
 * The state of the signed-in user's signer request for `publicKey`: read
 * from Farcaster while pending, stored once approved or revoked. Another
 * user's key, or a key never initialised, is 404 FARCASTER_SIGNER_NOT_FOUND.
 * An approval records the key on the user's Farcaster account
 * (`signer_public_key`).
 */
export async function farcasterSignerStatus(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  publicKey: Hex,
): Promise<FarcasterSignerResponse> {
  const row = await services.db
    .selectFrom('farcaster_signers')
    .selectAll()
    .where('app_id', '=', app.id)
    .where('public_key', '=', publicKey)
    .where('user_id', '=', auth.userId)
    .executeTakeFirst()
  if (!row) throw new ApiError('FARCASTER_SIGNER_NOT_FOUND')
  if (row.status !== 'pending_approval') return wire(row)
  const request = await apiOf(services).get(row.request_token)
  const status = statusOf(request)
  if (status === 'pending_approval') return wire(row)
  const fid = status === 'approved' ? request.userFid : null
  await services.db
    .updateTable('farcaster_signers')
    .set({ status, fid, updated_at: services.now() })
    .where('app_id', '=', app.id)
    .where('public_key', '=', publicKey)
    .where('request_token', '=', row.request_token)
    .execute()
  if (status === 'approved') await recordSignerOnAccount(services, auth, publicKey, fid)
  return wire({ ...row, status, fid })
}

/** Sets `signer_public_key` on the user's Farcaster account when it is the fid that approved. */
async function recordSignerOnAccount(
  services: Services,
  auth: AuthContext,
  publicKey: string,
  fid: number | null,
): Promise<void> {
  const account = await farcasterAccountOf(services, auth)
  if (!account || fid === null || account.identifier !== String(fid)) return
  let data: Record<string, unknown> = {}
  try {
    data = JSON.parse(account.data) as Record<string, unknown>
  } catch {}
  await services.db
    .updateTable('linked_accounts')
    .set({ data: JSON.stringify({ ...data, signer_public_key: publicKey }) })
    .where('id', '=', account.id)
    .execute()
}
