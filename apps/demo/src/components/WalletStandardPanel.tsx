import { getWallets } from '@wallet-standard/app'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { useEffect, useState } from 'react'

// What a Solana app built on the Wallet Standard (as @solana/wallet-adapter-react
// is) sees: the wallets registered on the page, "Latchkey" among them
// (docs/solana-wallet-standard.md), used only through its standard features.

const MESSAGE = 'Hello from a Wallet Standard app'
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

type ConnectFeature = {
  connect(input?: { silent?: boolean }): Promise<{ accounts: readonly WalletAccount[] }>
}
type EventsFeature = {
  on(
    event: 'change',
    listener: (change: { accounts?: readonly WalletAccount[] }) => void,
  ): () => void
}
type SignMessageFeature = {
  signMessage(
    ...inputs: { account: WalletAccount; message: Uint8Array }[]
  ): Promise<readonly { signature: Uint8Array }[]>
}

/** The page's Wallet Standard wallets, kept up to date as wallets register. */
function useStandardWallets(): readonly Wallet[] {
  const [wallets, setWallets] = useState<readonly Wallet[]>(() => getWallets().get())
  useEffect(() => {
    const registry = getWallets()
    const update = () => setWallets(registry.get())
    const offRegister = registry.on('register', update)
    const offUnregister = registry.on('unregister', update)
    update()
    return () => {
      offRegister()
      offUnregister()
    }
  }, [])
  return wallets
}

export function WalletStandardPanel() {
  const wallets = useStandardWallets()
  const latchkey = wallets.find((wallet) => wallet.name === 'Latchkey')
  const [account, setAccount] = useState<WalletAccount | null>(null)
  const [signature, setSignature] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  // The wallet keeps what `connect` authorized (this panel remounts when the
  // user logs in); a logout or disconnect reaches the app as a 'change'
  // without accounts.
  useEffect(() => {
    if (!latchkey) return
    setAccount(latchkey.accounts[0] ?? null)
    const events = latchkey.features['standard:events'] as EventsFeature
    return events.on('change', (change) => {
      if (change.accounts) setAccount(change.accounts[0] ?? null)
    })
  }, [latchkey])

  const run = (action: () => Promise<void>) => {
    setError(null)
    action().catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
  }
  const connect = () =>
    run(async () => {
      const feature = latchkey?.features['standard:connect'] as ConnectFeature
      const { accounts } = await feature.connect()
      setAccount(accounts[0] ?? null)
    })
  const sign = () =>
    run(async () => {
      if (!latchkey || !account) return
      const feature = latchkey.features['solana:signMessage'] as SignMessageFeature
      const [output] = await feature.signMessage({
        account,
        message: new TextEncoder().encode(MESSAGE),
      })
      setSignature(output ? toBase64(output.signature) : null)
    })

  return (
    <section className="card" aria-labelledby="wallet-standard-title">
      <h2 id="wallet-standard-title" className="card-title">
        Wallet Standard
      </h2>
      <p className="muted">Solana wallets registered on this page:</p>
      <ul data-testid="standard-wallets">
        {wallets.map((wallet) => (
          <li key={wallet.name}>
            <img src={wallet.icon} alt="" width={16} height={16} /> {wallet.name}
          </li>
        ))}
      </ul>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={!latchkey}
          onClick={connect}
        >
          Standard: connect Latchkey
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={!account}
          onClick={sign}
        >
          Standard: sign message
        </button>
      </div>
      <p className="result" data-testid="standard-account">
        <strong>Account:</strong> <code>{account?.address ?? 'not connected'}</code>
      </p>
      {signature && (
        <p className="result" data-testid="standard-signature">
          <strong>Signature:</strong> <code>{signature}</code>
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  )
}
