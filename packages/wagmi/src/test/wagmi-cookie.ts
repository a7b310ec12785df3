import { serialize, version } from 'wagmi'

/**
 * The `wagmi.store` cookie wagmi's cookie storage (`createStorage({ storage:
 * cookieStorage })`) holds after an earlier visit connected `address` through
 * Latchkey's embedded-wallet connector: what a server hands to
 * `cookieToInitialState`, and what the browser's wagmi rehydrates from.
 */
export function storedConnectionCookie(address: `0x${string}`, chainId: number): string {
  const uid = 'earlier-visit'
  const connector = { id: 'latchkey', name: 'Latchkey embedded wallet', type: 'latchkey', uid }
  const state = {
    chainId,
    current: uid,
    connections: new Map([[uid, { accounts: [address], chainId, connector }]]),
  }
  // wagmi versions its store by the major of @wagmi/core, which moves with wagmi's own.
  return `wagmi.store=${serialize({ state, version: Number.parseInt(version, 10) })}`
}
