import {
  LatchkeyError,
  type TypedData,
  useCreateWallet,
  useExportWallet,
  useRecoverWallet,
  useSetWalletPassword,
  useSetWalletRecovery,
  useSignMessage,
  useSignTypedData,
  useSolanaWallets,
  useWallets,
} from '@latchkey/react'
import { useState } from 'react'
import { describeError } from './describe-error.ts'

const MESSAGE = 'Hello from the Latchkey demo'
// The EIP-712 example (the spec's "Ether Mail") on Ethereum mainnet.
const MAIL: TypedData = {
  domain: {
    name: 'Ether Mail',
    version: '1',
    chainId: 1,
    verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
  },
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
}
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

/**
 * Closing the password wizard or the backup options is a choice, not a
 * failure: the hooks reject with SET_PASSWORD_EXITED / SET_RECOVERY_EXITED
 * (their API), and the demo says, neutrally, that nothing changed.
 */
const isDismissal = (e: unknown) =>
  e instanceof LatchkeyError &&
  (e.code === 'SET_PASSWORD_EXITED' || e.code === 'SET_RECOVERY_EXITED')

const isEmbedded = <T extends { connectorType: string }>(
  wallet: T,
): wallet is Extract<T, { connectorType: 'embedded' }> => wallet.connectorType === 'embedded'

/** The user's embedded wallets: addresses, recovery status, and what they can do. */
export function Wallets() {
  // External wallets have their own section (ExternalWallets.tsx).
  const wallets = useWallets().wallets.filter(isEmbedded)
  const solanaWallets = useSolanaWallets().wallets.filter(isEmbedded)
  const { createWallet } = useCreateWallet()
  const { signMessage } = useSignMessage()
  const { signTypedData } = useSignTypedData()
  const { setWalletPassword } = useSetWalletPassword()
  const { setWalletRecovery } = useSetWalletRecovery()
  const { exportWallet } = useExportWallet()
  const { recoverWallet } = useRecoverWallet()
  const [busy, setBusy] = useState<string | null>(null)
  const [result, setResult] = useState<{ label: string; value: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [note, setNote] = useState<string | null>(null)

  async function run(label: string, action: () => Promise<string>) {
    setBusy(label)
    setError(null)
    setNote(null)
    try {
      setResult({ label, value: await action() })
    } catch (e) {
      if (isDismissal(e)) setNote(`${label} unchanged: the dialog was closed.`)
      else setError(describeError(e))
    } finally {
      setBusy(null)
    }
  }

  const ethereum = wallets[0]
  const solana = solanaWallets[0]
  const noWallet = wallets.length + solanaWallets.length === 0
  return (
    <div className="section">
      <h3 className="section-title" id="wallets-title">
        Embedded wallets
      </h3>
      {noWallet ? (
        <p className="muted">No embedded wallet yet.</p>
      ) : (
        <ul className="wallet-list" aria-labelledby="wallets-title">
          {[...wallets, ...solanaWallets].map((wallet) => (
            <li
              key={wallet.address}
              className="wallet-row"
              data-testid={`wallet-${wallet.type}-${wallet.walletIndex}`}
            >
              <span className="badge">{wallet.type}</span>
              <code className="wallet-address">{wallet.address}</code>
              <span className="muted wallet-recovery" title={wallet.recovery.description}>
                {wallet.recovery.recoverable ? 'Recoverable' : 'Not recoverable'} ·{' '}
                {wallet.recovery.description}
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="actions">
        {noWallet && (
          // A creation cut short (a reload mid-way), a guest from before guests got wallets,
          // or an app with createOnLogin 'off': no dead end, the wallets are made here.
          <button
            type="button"
            className="button button-primary"
            disabled={busy !== null}
            onClick={() =>
              run('Wallets created', async () => {
                const created = await createWallet()
                await createWallet({ chainType: 'solana' })
                return created.address
              })
            }
          >
            {busy === 'Wallets created' ? 'Creating…' : 'Create wallet'}
          </button>
        )}
        <button
          type="button"
          className="button button-secondary"
          disabled={!ethereum || busy !== null}
          onClick={() =>
            run(
              'Ethereum signature',
              async () => (await signMessage({ message: MESSAGE })).signature,
            )
          }
        >
          {busy === 'Ethereum signature' ? 'Signing…' : 'Sign message'}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={!ethereum || busy !== null}
          onClick={() =>
            run('Typed data signature', async () => (await signTypedData(MAIL)).signature)
          }
        >
          {busy === 'Typed data signature' ? 'Signing…' : 'Sign typed data'}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={!solana || busy !== null}
          onClick={() =>
            run('Solana signature', async () => {
              // Signing through the wallet directly: ask for the password first on a new device.
              await recoverWallet({ chainType: 'solana' })
              return toBase64(
                (await solana?.signMessage(new TextEncoder().encode(MESSAGE))) ?? new Uint8Array(),
              )
            })
          }
        >
          {busy === 'Solana signature' ? 'Signing…' : 'Solana sign message'}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={!ethereum || busy !== null}
          onClick={() =>
            run('New wallet', async () => {
              await recoverWallet()
              return (await createWallet({ createAdditional: true })).address
            })
          }
        >
          {busy === 'New wallet' ? 'Creating…' : 'Create additional wallet'}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={!ethereum || busy !== null}
          onClick={() =>
            run('Recovery password', async () => {
              await setWalletPassword()
              return 'set'
            })
          }
        >
          {busy === 'Recovery password' ? 'Setting…' : 'Set recovery password'}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={!ethereum || busy !== null}
          onClick={() =>
            run('Backup method', async () => {
              await setWalletRecovery()
              return 'updated'
            })
          }
        >
          {busy === 'Backup method' ? 'Updating…' : 'Backup options'}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={!ethereum || busy !== null}
          onClick={() =>
            run('Export', async () => {
              await exportWallet()
              return 'closed'
            })
          }
        >
          {busy === 'Export' ? 'Exporting…' : 'Export wallet'}
        </button>
      </div>
      {result && (
        <p className="result" data-testid="wallet-result">
          <strong>{result.label}:</strong> <code>{result.value}</code>
        </p>
      )}
      {note && (
        <p className="muted result" data-testid="wallet-note" role="status">
          {note}
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
