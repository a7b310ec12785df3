import {
  type ConnectedExternalWallet,
  useConnectWallet,
  useSolanaWallets,
  useWallets,
} from '@latchkey/react'
import { useState } from 'react'
import { describeError } from './describe-error.ts'

const MESSAGE = 'Hello from the Latchkey demo'
const toHex = (text: string) =>
  `0x${Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('')}`
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

/**
 * External wallets connected in this browser (MetaMask, Phantom,
 * WalletConnect…): connect one without logging in, sign with it through its
 * own provider, disconnect it.
 */
export function ExternalWallets() {
  const { connectWallet } = useConnectWallet()
  const external = [...useWallets().wallets, ...useSolanaWallets().wallets].filter(
    (w): w is ConnectedExternalWallet => w.connectorType !== 'embedded',
  )
  const [result, setResult] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  async function run(action: () => Promise<string | null>) {
    setError(null)
    setResult(null)
    try {
      setResult(await action())
    } catch (e) {
      setError(describeError(e))
    }
  }

  const sign = (wallet: ConnectedExternalWallet) =>
    run(async () => {
      if (wallet.type === 'solana')
        return toBase64(await wallet.signMessage(new TextEncoder().encode(MESSAGE)))
      return (await wallet.getEthereumProvider().request({
        method: 'personal_sign',
        params: [toHex(MESSAGE), wallet.address],
      })) as string
    })

  return (
    <div className="section">
      <h3 className="section-title" id="external-wallets-title">
        External wallets
      </h3>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => run(async () => (await connectWallet()).address)}
        >
          Connect a wallet
        </button>
      </div>
      {external.length === 0 ? (
        <p className="muted">No external wallet connected.</p>
      ) : (
        <ul className="wallet-list" aria-labelledby="external-wallets-title">
          {external.map((wallet) => (
            <li
              key={`${wallet.type}:${wallet.address}`}
              className="wallet-row"
              data-testid={`external-wallet-${wallet.type}`}
            >
              <span className="badge">{wallet.meta.name}</span>
              <code className="wallet-address">{wallet.address}</code>
              <span className="muted">
                {wallet.type === 'ethereum' ? wallet.chainId : 'solana'} · {wallet.connectorType}
              </span>
              <button
                type="button"
                className="link-button"
                aria-label={`Sign with ${wallet.meta.name}`}
                onClick={() => sign(wallet)}
              >
                Sign
              </button>
              <button
                type="button"
                className="link-button"
                aria-label={`Disconnect ${wallet.meta.name}`}
                onClick={() =>
                  run(async () => {
                    await wallet.disconnect()
                    return null
                  })
                }
              >
                Disconnect
              </button>
            </li>
          ))}
        </ul>
      )}
      {result && (
        <p className="muted" data-testid="external-wallet-result">
          <code className="mono">{result}</code>
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
