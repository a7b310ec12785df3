import type { Kysely } from 'kysely'

// Tracker issue 20 (two nodes): the relay deletes a channel the first time it
// reports it completed, and each node kept that one answer in its own memory.
// A poll or a login that reached another node found the relay empty: the poll
// failed (FARCASTER_RELAY_ERROR) and the login lost the profile fields. The
// answer now lives with the channel, where every node reads it.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types (Kysely guidance)
export async function up(db: Kysely<any>): Promise<void> {
  // The relay's completed status (JSON), from the first read until the channel is spent.
  await db.schema.alterTable('farcaster_channels').addColumn('completion', 'text').execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('farcaster_channels').dropColumn('completion').execute()
}
