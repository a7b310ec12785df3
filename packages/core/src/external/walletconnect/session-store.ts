import { ed25519 } from '@noble/curves/ed25519.js'
import { bytesToHex, hexToBytes } from './crypto.ts'
import { isNamespaces, type Session } from './protocol.ts'
import { readJson, type WalletConnectStorage, writeJson } from './storage.ts'

// What survives a reload: the client's relay identity and its session (keys
// included, as WalletConnect's own core keeps them in IndexedDB).

/** The storage keys (docs/login-wallets.md "How WalletConnect is wired"). */
export const IDENTITY_KEY = 'latchkey:walletconnect:identity'
export const SESSION_KEY = 'latchkey:walletconnect:session'

/** The client's ed25519 seed (its relay identity), made once and stored. */
export async function loadIdentity(storage: WalletConnectStorage): Promise<Uint8Array> {
  const stored = await readJson<{ seed: string }>(storage, IDENTITY_KEY)
  if (stored && /^[0-9a-f]{64}$/.test(stored.seed)) return hexToBytes(stored.seed)
  const seed = ed25519.utils.randomSecretKey()
  await writeJson(storage, IDENTITY_KEY, { seed: bytesToHex(seed) })
  return seed
}

/** The stored session while it is live; an expired or unreadable one is removed. */
export async function loadSession(storage: WalletConnectStorage): Promise<Session | null> {
  const stored = await readJson<Session>(storage, SESSION_KEY)
  if (!stored) return null
  const live =
    typeof stored.topic === 'string' &&
    typeof stored.symKey === 'string' &&
    isNamespaces(stored.namespaces) &&
    stored.expiry * 1000 > Date.now()
  if (live) return stored
  await storage.removeItem(SESSION_KEY)
  return null
}

export async function storeSession(
  storage: WalletConnectStorage,
  session: Session | null,
): Promise<void> {
  if (session) await writeJson(storage, SESSION_KEY, session)
  else await storage.removeItem(SESSION_KEY)
}
