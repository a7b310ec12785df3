import type { LinkedAccountWire, UserWire } from '@latchkey/protocol'

/*
 * The events an app's webhook can receive (docs: webhooks, "Events"). Each
 * request body is `{ type, data, timestamp }` (the Standard Webhooks payload
 * shape), with the user, account and wallet as the public API shows them:
 * never a secret, a share or a key.
 */

/** Every event type, in the order the docs list them. */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.linked_account',
  'user.wallet_created',
  'transaction.sent',
] as const

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

export const isWebhookEventType = (value: string): value is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value)

/** An embedded wallet as `user.wallet_created` names it (a `wallet` entry of the user's linked accounts). */
export type WebhookWallet = Extract<LinkedAccountWire, { type: 'wallet' }>

/** `transaction.sent`: a transaction the server sent for an app (delegated server-side sends). */
export interface TransactionSentData {
  /** The user whose wallet sent it; null when the wallet belongs to no user. */
  user_id: string | null
  wallet: { address: string; chain_type: 'ethereum' | 'solana' }
  /** CAIP-2 chain id, e.g. `eip155:1` or `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`. */
  caip2: string
  /** The transaction hash (Ethereum) or signature (Solana). */
  transaction_hash: string
}

/** The `data` of each event type. */
export interface WebhookEventData {
  /** A new user, by any sign-up path (guests included). */
  'user.created': { user: UserWire }
  /** An account linked to an existing user (a guest upgraded by it included). */
  'user.linked_account': { user: UserWire; account: LinkedAccountWire }
  /** An embedded wallet stored for a user (one event per wallet; imported keys included). */
  'user.wallet_created': { user: UserWire; wallet: WebhookWallet }
  'transaction.sent': TransactionSentData
}

/**
 * One event as the receiver gets it: the parsed request body.
 *
 * @example
 * const event: WebhookEvent = { type: 'user.created', data: { user }, timestamp: '2030-01-01T00:00:00.000Z' }
 * if (event.type === 'user.created') console.log(event.data.user.id)
 */
export type WebhookEvent = {
  [T in WebhookEventType]: {
    type: T
    data: WebhookEventData[T]
    /** When the event happened (ISO 8601); each delivery attempt signs its own time in `webhook-timestamp`. */
    timestamp: string
  }
}[WebhookEventType]
