import { defineChain, UserRejectedRequestError, verifyMessage } from 'viem'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Config } from 'wagmi'
import { getConnection, signMessage, watchConnection } from 'wagmi/actions'
import { useSetActiveWallet } from './LatchkeyWagmiProvider.tsx'
import { devAccount } from './test/anvil-wallet.ts'
import { renderWithWagmi } from './test/render.tsx'

// <LatchkeyWagmiProvider> keeps wagmi on the Latchkey session's wallet: the
// embedded wallet (its enclave a function holding Anvil's dev key), its
// messages signed through the modal's real "Sign message" screen.
const chain = defineChain({
  id: 31337,
  name: 'Local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  // Nothing here reaches a node: accounts, chain and signing are the wallet's own.
  rpcUrls: { default: { http: ['http://127.0.0.1:9'] } },
})

let cleanup: (() => Promise<void>) | undefined
afterEach(async () => {
  await cleanup?.()
  cleanup = undefined
})

/** Resolves once wagmi's connection satisfies `test` (now or on a later change). */
function connectionWhere(config: Config, test: (c: ReturnType<typeof getConnection>) => boolean) {
  return new Promise<ReturnType<typeof getConnection>>((resolve) => {
    if (test(getConnection(config))) return resolve(getConnection(config))
    const stop = watchConnection(config, {
      onChange(connection) {
        if (!test(connection)) return
        stop()
        resolve(connection)
      },
    })
  })
}

const button = (name: string) =>
  vi.waitFor(
    () => {
      const found = [...document.querySelectorAll('button')].find(
        (b) => b.textContent === name || b.getAttribute('aria-label') === name,
      )
      if (!found) throw new Error(`no "${name}" button yet`)
      return found
    },
    { timeout: 5_000 },
  )

/** Hands the test the hook's function, as a host component would hold it. */
let setActiveWallet: ReturnType<typeof useSetActiveWallet>['setActiveWallet'] | undefined
function Probe() {
  setActiveWallet = useSetActiveWallet().setActiveWallet
  return null
}

describe('<LatchkeyWagmiProvider>', () => {
  it('connects wagmi to the embedded wallet; wagmi signMessage asks on the sign screen', async () => {
    const { config, unmount } = await renderWithWagmi(null, chain)
    cleanup = unmount
    const connection = await connectionWhere(config, (c) => c.status === 'connected')
    expect(connection).toMatchObject({ address: devAccount.address, chainId: chain.id })
    expect(connection.connector?.type).toBe('latchkey')

    const signing = signMessage(config, { message: 'Hello from wagmi' })
    const sign = await button('Sign and continue')
    expect(document.body.textContent).toContain('Hello from wagmi')
    sign.click()
    const signature = await signing
    expect(
      await verifyMessage({ address: devAccount.address, message: 'Hello from wagmi', signature }),
    ).toBe(true)
  })

  it('closing the sign screen rejects wagmi signMessage with UserRejectedRequestError', async () => {
    const { config, unmount } = await renderWithWagmi(null, chain)
    cleanup = unmount
    await connectionWhere(config, (c) => c.status === 'connected')
    const signing = signMessage(config, { message: 'Not this one' }).catch((e: unknown) => e)
    await button('Sign and continue')
    const close = await button('Close')
    close.click()
    const error = (await signing) as Error & { walk(fn: (e: unknown) => boolean): unknown }
    expect(error.walk((e) => e instanceof UserRejectedRequestError)).toBeInstanceOf(
      UserRejectedRequestError,
    )
  })

  it('disconnects wagmi when the user logs out', async () => {
    const { config, client, unmount } = await renderWithWagmi(null, chain)
    cleanup = unmount
    await connectionWhere(config, (c) => c.status === 'connected')
    client.session.clear()
    const after = await connectionWhere(config, (c) => c.status === 'disconnected')
    expect(after.address).toBeUndefined()
  })

  it('useSetActiveWallet: the embedded wallet again is a no-op; a wallet the user lacks is refused', async () => {
    const { config, unmount } = await renderWithWagmi(<Probe />, chain)
    cleanup = unmount
    const first = await connectionWhere(config, (c) => c.status === 'connected')
    await setActiveWallet?.({ address: devAccount.address.toLowerCase() })
    expect(getConnection(config).connector?.uid).toBe(first.connector?.uid)
    await expect(
      setActiveWallet?.({ address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }),
    ).rejects.toMatchObject({ code: 'WALLET_NOT_FOUND' })
    expect(getConnection(config).address).toBe(devAccount.address)
  })
})
