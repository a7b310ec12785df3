import { useSmartWallets } from '@latchkey/react'
import { useState } from 'react'
import { describeError } from './describe-error.ts'

const MESSAGE = 'Hello from a Latchkey smart wallet'

/** A closed confirm or sign screen is the user's choice (4001), not a failure. */
const isRejection = (e: unknown) => (e as { code?: unknown })?.code === 4001

/**
 * The user's smart wallet (docs/smart-wallets.md), when the app turned smart
 * wallets on: its address — counterfactual until its first user operation
 * deploys it — whether the app pays the gas, and a send, a batch of two
 * (confirmed '(1 / 2)', '(2 / 2)', sent as one operation) and a signature.
 */
export function SmartWalletPanel() {
  const { client, error: unavailable } = useSmartWallets()
  const [busy, setBusy] = useState<string | null>(null)
  const [result, setResult] = useState<{ label: string; value: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  if (!client && !unavailable) return null

  async function run(label: string, action: () => Promise<string>) {
    setBusy(label)
    setError(null)
    setResult(null)
    try {
      setResult({ label, value: await action() })
    } catch (e) {
      if (!isRejection(e)) setError(describeError(e))
    } finally {
      setBusy(null)
    }
  }

  const self = client?.account.address
  return (
    <div className="section" data-testid="smart-wallet-panel">
      <h3 className="section-title">Smart wallet</h3>
      {client && self ? (
        <>
          <ul className="wallet-list" aria-label="Smart wallet">
            <li className="wallet-row">
              <span className="badge">{client.type}</span>
              <code className="wallet-address" data-testid="smart-wallet-address">
                {self}
              </code>
              <span className="muted wallet-recovery">
                {client.chain.name} ·{' '}
                <span data-testid="smart-wallet-gas">
                  {client.sponsored ? 'Sponsored' : 'Paid by the wallet'}
                </span>
              </span>
            </li>
          </ul>
          <div className="actions">
            <button
              type="button"
              className="button button-secondary"
              disabled={busy !== null}
              onClick={() => run('Sent', () => client.sendTransaction({ to: self, value: 0n }))}
            >
              {busy === 'Sent' ? 'Sending…' : 'Send 0 ETH to self'}
            </button>
            <button
              type="button"
              className="button button-secondary"
              disabled={busy !== null}
              onClick={() =>
                run('Batch sent', async () => {
                  const calls = [
                    { to: self, value: 0n },
                    { to: self, value: 0n },
                  ]
                  return (await client.sendCalls(calls)).transactionHash
                })
              }
            >
              {busy === 'Batch sent' ? 'Sending…' : 'Batch of two'}
            </button>
            <button
              type="button"
              className="button button-secondary"
              disabled={busy !== null}
              onClick={() =>
                run('Smart wallet signature', () => client.signMessage({ message: MESSAGE }))
              }
            >
              {busy === 'Smart wallet signature' ? 'Signing…' : 'Sign message'}
            </button>
          </div>
        </>
      ) : (
        <p className="error" role="alert">
          {describeError(unavailable)}
        </p>
      )}
      {result && (
        <p className="result" data-testid="smart-wallet-result">
          <strong>{result.label}:</strong> <code>{result.value}</code>
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
