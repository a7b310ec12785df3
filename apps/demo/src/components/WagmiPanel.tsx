import {
  LatchkeyWagmiProvider,
  useSetActiveWallet,
  useWagmiWallets,
  type WagmiWallet,
} from '@latchkey/wagmi'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { defineChain, parseEther } from 'viem'
import { foundry } from 'viem/chains'
import { createConfig, http, useConnection, useSendTransaction, useSignMessage } from 'wagmi'
import { readDemoConfig } from '../config.ts'
import { describeError } from './describe-error.ts'

const MESSAGE = 'Hello from wagmi'
// Anvil's second dev account: somewhere to send to.
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/**
 * The wagmi panel: wagmi's own hooks (`useConnection`, `useSignMessage`,
 * `useSendTransaction`) acting through the active Latchkey wallet, on the
 * local Anvil chain; a user with several Ethereum wallets (the embedded one
 * and connected external ones) picks it with `useSetActiveWallet`.
 * `@latchkey/wagmi`'s provider wraps only this panel here; an app puts it
 * around everything (docs/wagmi.md).
 */
export function WagmiPanel() {
  const { localRpcUrl } = useMemo(() => readDemoConfig(), [])
  const [queryClient] = useState(() => new QueryClient())
  const config = useMemo(() => {
    const local = defineChain({ ...foundry, rpcUrls: { default: { http: [localRpcUrl] } } })
    return createConfig({ chains: [local], transports: { [local.id]: http(localRpcUrl) } })
  }, [localRpcUrl])
  return (
    <QueryClientProvider client={queryClient}>
      <LatchkeyWagmiProvider config={config}>
        <WagmiActions />
      </LatchkeyWagmiProvider>
    </QueryClientProvider>
  )
}

const walletName = (wallet: WagmiWallet) =>
  wallet.connectorType === 'embedded'
    ? 'Embedded wallet'
    : (wallet.meta?.name ?? wallet.walletClientType)

function WagmiActions() {
  const { address, status, chainId, connector } = useConnection()
  const sign = useSignMessage()
  const send = useSendTransaction()
  const [result, setResult] = useState<{ label: string; value: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const { wallets } = useWagmiWallets()
  const { setActiveWallet } = useSetActiveWallet()
  const busy = sign.isPending || send.isPending

  async function run(label: string, action: () => Promise<string>) {
    setError(null)
    setResult(null)
    try {
      setResult({ label, value: await action() })
    } catch (e) {
      // A closed screen is the user's choice, not a failure worth showing.
      if ((e as { name?: string }).name === 'UserRejectedRequestError') return
      setError(describeError(e))
    }
  }

  return (
    <div className="section" data-testid="wagmi-panel">
      <h3 className="section-title">wagmi</h3>
      <p className="muted">
        wagmi's hooks through <code>@latchkey/wagmi</code>: status{' '}
        <span data-testid="wagmi-status">{status}</span>
        {connector ? ` via ${connector.name}` : ''}
        {chainId ? `, chain ${chainId}` : ''}.
      </p>
      {wallets.length > 1 && (
        <label className="field-inline">
          wagmi wallet{' '}
          <select
            className="input"
            aria-label="wagmi wallet"
            value={address?.toLowerCase() ?? ''}
            disabled={busy}
            onChange={(e) => {
              const chosen = e.target.value
              run('wagmi wallet', async () => {
                await setActiveWallet({ address: chosen })
                return chosen
              })
            }}
          >
            {wallets.map((wallet) => (
              <option key={wallet.address} value={wallet.address.toLowerCase()}>
                {walletName(wallet)} · {wallet.address}
              </option>
            ))}
          </select>
        </label>
      )}
      <p className="result">
        wagmi address: <code data-testid="wagmi-address">{address ?? '—'}</code>
      </p>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={!address || busy}
          onClick={() => run('wagmi signature', () => sign.mutateAsync({ message: MESSAGE }))}
        >
          wagmi: sign message
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={!address || busy}
          onClick={() =>
            run('wagmi transaction', () =>
              send.mutateAsync({ to: RECIPIENT, value: parseEther('0.001') }),
            )
          }
        >
          wagmi: send 0.001 ETH
        </button>
      </div>
      {result && (
        <p className="result" data-testid="wagmi-result">
          {result.label}: <code>{result.value}</code>
        </p>
      )}
      {error && (
        <p className="error" role="alert" data-testid="wagmi-error">
          {error}
        </p>
      )}
    </div>
  )
}
