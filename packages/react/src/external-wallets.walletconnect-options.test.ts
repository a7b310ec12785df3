import { createMemoryStorage, type LatchkeyClient } from '@latchkey/core'
import { describe, expect, it, vi } from 'vitest'
import { createExternalWalletsHandle } from './external-wallets.ts'

// The host's `externalWallets.walletConnect` settings reach the wallet
// manager as core takes them (core's walletconnect.relay.test.ts connects
// through a relay given so, against a local relay).
const createExternalWallets = vi.hoisted(() =>
  vi.fn((_options: Record<string, unknown>) => ({
    subscribe: () => () => {},
    getState: () => null,
  })),
)
vi.mock('@latchkey/core/external', () => ({ createExternalWallets }))

const client = {
  appId: 'testappaaaaaaaaaaaaaaaaaa',
  storage: createMemoryStorage(),
} as unknown as LatchkeyClient

const handleFor = (walletConnect: Record<string, unknown>) =>
  createExternalWalletsHandle(
    client,
    () => ({ externalWallets: { walletConnect } }),
    () => 'Test App',
  )

describe('externalWallets.walletConnect', () => {
  it('passes the project id and a relay of your own to the wallet manager', async () => {
    await handleFor({ projectId: 'project-1', relayUrl: 'wss://relay.example' }).load()
    expect(createExternalWallets).toHaveBeenLastCalledWith(
      expect.objectContaining({
        walletConnectProjectId: 'project-1',
        walletConnectRelayUrl: 'wss://relay.example',
      }),
    )
  })

  it('leaves the relay to WalletConnect when none is given, and is off when disabled', async () => {
    await handleFor({ projectId: 'project-1' }).load()
    expect(createExternalWallets.mock.lastCall?.[0]).not.toHaveProperty('walletConnectRelayUrl')
    await handleFor({ enabled: false, projectId: 'project-1' }).load()
    expect(createExternalWallets).toHaveBeenLastCalledWith(
      expect.objectContaining({ walletConnectProjectId: null }),
    )
  })
})
