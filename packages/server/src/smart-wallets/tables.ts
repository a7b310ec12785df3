/**
 * One sponsorship the server's paymaster signed (migration 024): the ledger
 * the per-user daily caps read (sponsored-operations.ts). One row per
 * user operation (app, chain, sender, nonce): signing the same operation
 * again replaces its row, since only one operation per nonce can run.
 */
export interface SponsoredOperationsTable {
  id: string
  app_id: string
  user_id: string
  chain_id: number
  /** The smart account, lowercase. */
  sender: string
  /** The operation's nonce, decimal (key and sequence). */
  nonce: string
  /** Wei, decimal: the most the operation can cost the paymaster (EntryPoint v0.7 prefund). */
  max_cost: string
  created_at: number
}
