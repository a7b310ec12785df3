import type { LatchkeyClient } from '../client.ts'
import { enclaveMayRun } from '../enclave/may-run.ts'
import { ENCLAVE_KEY_WAIT_MS } from '../session-key.ts'
import { bridges, enclavePageUrl } from './enclave-registry.ts'

// What the provider needs of the enclave when it mounts: installing the
// session key provider. The bridge's code (./get-enclave.ts and
// ../enclave/bridge.ts) is not on the first chunk: it loads right after, and
// frames the enclave (docs/first-load.md).

/**
 * Binds every session the client logs in from now on to the enclave's
 * device key (docs/security.md "Key routes answer only to the enclave"):
 * installs a session key provider that asks the enclave for its key
 * thumbprint, and frames the enclave right away (once the bridge's code has
 * loaded), so that the key is known before the user submits a login. A login
 * waits at most {@link ENCLAVE_KEY_WAIT_MS} for it. Where the enclave cannot run (plain HTTP off localhost) nothing is
 * installed: embedded wallets refuse to work there anyway. Returns what
 * uninstalls the provider.
 *
 * @example
 * const unbind = bindSessionsToEnclave(client)
 * await loginWithEmailCode(client, { email, code }) // sends latchkey-enclave-key
 */
export function bindSessionsToEnclave(client: LatchkeyClient): () => void {
  if (!bridges.has(client) && !enclaveMayRun(new URL(enclavePageUrl(client)))) return () => {}
  const enclave = () => import('./get-enclave.ts').then(({ getEnclave }) => getEnclave(client))
  // Frames the enclave as soon as the bridge's code is here, long before a user can submit a login.
  enclave().catch((error) =>
    console.warn('Latchkey: the wallet enclave could not be framed', error),
  )
  client.setSessionKeyProvider(() =>
    enclave().then((bridge) => bridge.keyThumbprint({ timeoutMs: ENCLAVE_KEY_WAIT_MS })),
  )
  return () => client.setSessionKeyProvider(null)
}
