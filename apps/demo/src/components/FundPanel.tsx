import { LatchkeyError, useFundWallet, useSolanaWallets, useWallets } from '@latchkey/react'
import { useState } from 'react'
import { base, foundry, mainnet } from 'viem/chains'
import { describeError } from './describe-error.ts'

// Where 'Fund Ethereum wallet' funds: the local chain (Receive, Transfer), or a
// chain the card on-ramps sell on.
const CHAINS = { local: foundry, base, mainnet } as const

/**
 * "Fund wallet" for each embedded wallet: the funding chooser (card, exchange,
 * another wallet, receive by QR code) as the app's funding settings offer it.
 * Ethereum funds on the local Anvil chain (the Send panel's), Solana on the
 * local ledger.
 */
export function FundPanel() {
  const { fundWallet } = useFundWallet()
  const ethereum = useWallets().wallets.find((w) => w.connectorType === 'embedded')
  const solana = useSolanaWallets().wallets.find((w) => w.connectorType === 'embedded')
  const [chain, setChain] = useState<keyof typeof CHAINS>('local')
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  async function fund(label: string, action: () => Promise<{ funded: boolean }>) {
    setBusy(true)
    setError(null)
    setResult(null)
    try {
      const { funded } = await action()
      setResult(`${label}: ${funded ? 'funded' : 'closed without funds'}`)
    } catch (e) {
      setError(e instanceof LatchkeyError ? `${e.code}: ${describeError(e)}` : describeError(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="section">
      <h3 className="section-title">Fund wallet</h3>
      <label className="field-inline">
        Funding chain{' '}
        <select
          className="input"
          value={chain}
          onChange={(e) => setChain(e.target.value as keyof typeof CHAINS)}
          aria-label="Funding chain"
        >
          <option value="local">Local (Anvil)</option>
          <option value="base">Base</option>
          <option value="mainnet">Ethereum</option>
        </select>
      </label>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={!ethereum || busy}
          onClick={() =>
            fund('Ethereum', () => fundWallet(ethereum?.address ?? '', { chain: CHAINS[chain] }))
          }
        >
          Fund Ethereum wallet
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={!solana || busy}
          onClick={() => fund('Solana', () => fundWallet(solana?.address ?? ''))}
        >
          Fund Solana wallet
        </button>
      </div>
      {result && (
        <p className="result" data-testid="fund-result">
          {result}
        </p>
      )}
      {error && (
        <p className="error" role="alert" data-testid="fund-error">
          {error}
        </p>
      )}
    </div>
  )
}
