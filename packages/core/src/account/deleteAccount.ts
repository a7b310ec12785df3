import type { LatchkeyClient } from '../client.ts'
import { enclaveRequest } from '../wallets/enclave.ts'

/**
 * Deletes the logged-in user's account: their linked accounts, their
 * embedded wallets (the server's shares and recovery material, and this
 * device's shares) and every session of theirs, on every device. It cannot
 * be undone; export a wallet first if it holds anything worth keeping.
 *
 * The enclave makes the request (the route answers only the enclave's own
 * page with its device key's proof: docs/security.md), then this client
 * ends the local session as logout does, without a server logout (the
 * sessions are gone already): tokens cleared, subscribers told. On failure
 * nothing is deleted and the session stays; it rejects with the
 * LatchkeyError (NOT_AUTHENTICATED when logged out, ENCLAVE_PROOF_INVALID,
 * TOO_MANY_REQUESTS, NETWORK_ERROR…).
 *
 * @example
 * await deleteAccount(client)
 * client.session.getState().status // 'unauthenticated'
 */
export async function deleteAccount(client: LatchkeyClient): Promise<void> {
  await enclaveRequest(client, 'latchkey:account:delete', {})
  client.session.clear()
}
