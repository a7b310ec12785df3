import { chainTypeSchema, walletAddressSchema } from '@latchkey/protocol/schemas'
import { z } from 'zod'

/**
 * The export page's postMessage protocol (packages/enclave/src/export).
 *
 * - page → host, on load: `{ event: 'latchkey:export:ready' }` (to the parent's
 *   allowed origin only, never `"*"`).
 * - host → page, once: `{ event: 'latchkey:export:init', data: { access_token,
 *   entropy_id, chain_type, wallet_index, theme? } }`. Anything else, from
 *   anywhere else, is ignored; after one valid init the page stops listening.
 * - page → host: `latchkey:export:loaded` `{ address, chain_type,
 *   wallet_index, has_seed_phrase }` once the buttons are shown;
 *   `latchkey:export:copied` `{ what: 'private_key' | 'seed_phrase' }` after a
 *   copy; `latchkey:export:error` `{ code, message }` on failure
 *   (`RECOVERY_REQUIRED` when this device holds no share of the wallet);
 *   `latchkey:export:escape` (no data) when the user presses Escape inside
 *   the page, so the host can close its dialog as it would for Escape on
 *   its own page (keys pressed in a cross-origin frame never reach the
 *   host). Sent only once the init has named the host's exact origin.
 *
 * No message to the host ever carries key material (security bar 44).
 */
export const EXPORT_READY_EVENT = 'latchkey:export:ready'
export const EXPORT_INIT_EVENT = 'latchkey:export:init'
export const EXPORT_LOADED_EVENT = 'latchkey:export:loaded'
export const EXPORT_COPIED_EVENT = 'latchkey:export:copied'
export const EXPORT_ERROR_EVENT = 'latchkey:export:error'
export const EXPORT_ESCAPE_EVENT = 'latchkey:export:escape'

export const exportInitSchema = z.object({
  event: z.literal(EXPORT_INIT_EVENT),
  data: z.object({
    access_token: z.string().min(1).max(4096),
    entropy_id: walletAddressSchema,
    chain_type: chainTypeSchema,
    /** HD index; `null` (or absent) for an imported key, which is index 0. */
    wallet_index: z.number().int().min(0).max(1_000).nullable().optional(),
    /** Forces the palette; otherwise the page follows `prefers-color-scheme`. */
    theme: z.enum(['light', 'dark']).optional(),
  }),
})

export type ExportInit = z.output<typeof exportInitSchema>['data']

/** What `latchkey:export:loaded` carries: public data only. */
export interface ExportLoaded {
  address: string
  chain_type: 'ethereum' | 'solana'
  wallet_index: number
  has_seed_phrase: boolean
}

export type CopiedWhat = 'private_key' | 'seed_phrase'
