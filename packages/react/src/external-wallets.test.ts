import { createMemoryStorage, type LatchkeyClient } from '@latchkey/core'
import { WALLET_RPC_TIMEOUT_MS } from '@latchkey/protocol/constants'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createExternalWalletsHandle } from './external-wallets.ts'

// The host's `externalWallets` settings reach the wallet manager: the wallet
// request timeout (spec 01 §9: 120000 ms by default, overridable per wallet).

const client = {
  appId: 'testappaaaaaaaaaaaaaaaaaa',
  storage: createMemoryStorage(),
} as unknown as LatchkeyClient

/** Announces (EIP-6963) a wallet that never answers. */
function installSilentWallet(uuid: string, name: string, rdns: string) {
  const detail = {
    info: { uuid, name, icon: 'data:image/svg+xml,<svg/>', rdns },
    provider: { request: () => new Promise(() => {}) },
  }
  const announce = () =>
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  window.addEventListener('eip6963:requestProvider', announce)
  return () => window.removeEventListener('eip6963:requestProvider', announce)
}

function track(promise: Promise<unknown>) {
  const probe = { error: undefined as unknown }
  promise.catch((error: unknown) => {
    probe.error = error
  })
  return probe
}

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
  vi.useRealTimers()
})

describe('createExternalWalletsHandle', () => {
  it('passes externalWallets.rpcTimeoutMs and rpcTimeoutMsByWallet to the manager', async () => {
    cleanups.push(installSilentWallet('uuid-mm', 'MetaMask', 'io.metamask'))
    cleanups.push(installSilentWallet('uuid-rabby', 'Rabby', 'io.rabby'))
    const handle = createExternalWalletsHandle(
      client,
      () => ({
        externalWallets: { rpcTimeoutMs: 5_000, rpcTimeoutMsByWallet: { metamask: 1_000 } },
      }),
      () => null,
    )
    const manager = await handle.load()
    cleanups.push(() => manager.destroy())
    vi.useFakeTimers()
    const metamask = track(manager.connect('eip6963:uuid-mm', 'ethereum'))
    const rabby = track(manager.connect('eip6963:uuid-rabby', 'ethereum'))
    await vi.advanceTimersByTimeAsync(1_000)
    expect(metamask.error).toMatchObject({ code: 'WALLET_REQUEST_TIMEOUT' })
    expect(rabby.error).toBeUndefined()
    await vi.advanceTimersByTimeAsync(4_000)
    expect(rabby.error).toMatchObject({ code: 'WALLET_REQUEST_TIMEOUT' })
  })

  it('without them, wallets get 120000 ms', async () => {
    cleanups.push(installSilentWallet('uuid-mm', 'MetaMask', 'io.metamask'))
    const handle = createExternalWalletsHandle(
      client,
      () => ({}),
      () => null,
    )
    const manager = await handle.load()
    cleanups.push(() => manager.destroy())
    vi.useFakeTimers()
    const metamask = track(manager.connect('eip6963:uuid-mm', 'ethereum'))
    await vi.advanceTimersByTimeAsync(WALLET_RPC_TIMEOUT_MS - 1)
    expect(metamask.error).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(metamask.error).toMatchObject({ code: 'WALLET_REQUEST_TIMEOUT' })
  })
})
