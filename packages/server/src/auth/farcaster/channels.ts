import { createHash } from 'node:crypto'
import { SIGN_IN_NONCE_TTL_MS } from '@latchkey/protocol'
import type { Selectable } from 'kysely'
import type { FarcasterChannelsTable } from '../../db/types.ts'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import type { RelayCompletedStatus } from './relay.ts'

/*
 * The relay channels this server opened (table farcaster_channels, migration
 * 006). Only SHA-256 of the channel token is stored: the token is a bearer
 * secret of the relay. A channel is bound to its app, and spent by one
 * conditional UPDATE once a proof for it verified.
 */

export type FarcasterChannel = Selectable<FarcasterChannelsTable>

/** SHA-256 (hex) of a channel token, the table's key. */
export const channelTokenHash = (channelToken: string): string =>
  createHash('sha256').update(channelToken).digest('hex')

const authenticationFailed = (reason: string) =>
  new ApiError('AUTHENTICATION_FAILED', undefined, { reason })

/** Records a channel the relay opened; deletes channels long past their expiry on the way. */
export async function recordChannel(
  services: Services,
  row: Omit<FarcasterChannel, 'used_at' | 'channel_token_hash' | 'completion'> & {
    channelToken: string
  },
): Promise<void> {
  const { channelToken, ...values } = row
  // Expired rows are kept a while so a late poll still hears "timed out", not "unknown".
  await services.db
    .deleteFrom('farcaster_channels')
    .where('expires_at', '<', row.created_at - SIGN_IN_NONCE_TTL_MS)
    .execute()
  await services.db
    .insertInto('farcaster_channels')
    .values({
      ...values,
      channel_token_hash: channelTokenHash(channelToken),
      used_at: null,
      completion: null,
    })
    .execute()
}

/**
 * The app's unexpired, unspent channel for `channelToken`: AUTHENTICATION_FAILED
 * (`unknown_channel`: none, or another app's; `channel_used`) or
 * FARCASTER_TIMEOUT (expired) otherwise.
 */
export async function findUsableChannel(
  services: Services,
  appId: string,
  channelToken: string,
): Promise<FarcasterChannel> {
  const row = await services.db
    .selectFrom('farcaster_channels')
    .selectAll()
    .where('channel_token_hash', '=', channelTokenHash(channelToken))
    .where('app_id', '=', appId)
    .executeTakeFirst()
  if (!row) throw authenticationFailed('unknown_channel')
  if (row.used_at !== null) throw authenticationFailed('channel_used')
  if (Number(row.expires_at) <= services.now()) throw new ApiError('FARCASTER_TIMEOUT')
  return row
}

/**
 * Spends the channel after its proof verified: one conditional UPDATE, so of
 * two concurrent submissions exactly one wins (the other: `channel_used`).
 */
export async function consumeChannel(services: Services, channel: FarcasterChannel): Promise<void> {
  const now = services.now()
  const result = await services.db
    .updateTable('farcaster_channels')
    // The relay's answer (a signed proof and a profile) is not kept past use.
    .set({ used_at: now, completion: null })
    .where('channel_token_hash', '=', channel.channel_token_hash)
    .where('app_id', '=', channel.app_id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== 1) throw authenticationFailed('channel_used')
}

/*
 * The relay deletes a channel the first time it reports it completed
 * (relay-core `GET /v1/channel/status`), and that first read is our status
 * proxy's. Its answer is kept on the channel's row until the channel is
 * spent: a repeated poll gets the same answer on every node, and
 * authenticate takes the profile fields (username, display name, bio,
 * picture) from it rather than from the browser.
 */

/** Keeps the relay's completed status on the (unspent) channel. */
export async function rememberCompletion(
  services: Services,
  channel: FarcasterChannel,
  status: RelayCompletedStatus,
): Promise<void> {
  await services.db
    .updateTable('farcaster_channels')
    .set({ completion: JSON.stringify(status) })
    .where('channel_token_hash', '=', channel.channel_token_hash)
    .where('app_id', '=', channel.app_id)
    .where('used_at', 'is', null)
    .execute()
}

/** The relay's completed status some node read for this channel, if any. */
export function recalledCompletion(channel: FarcasterChannel): RelayCompletedStatus | undefined {
  return channel.completion === null
    ? undefined
    : (JSON.parse(channel.completion) as RelayCompletedStatus)
}
