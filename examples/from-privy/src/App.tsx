import { useLatchkey, useSendTransaction, useSignMessage, useWallets } from '@latchkey/react'
import { useState } from 'react'
import { parseEther } from 'viem'

/** A Privy starter's home screen, ported: log in, see the user, sign and send from the embedded wallet. */
export function App() {
  const { ready, authenticated, user, login, logout } = useLatchkey()
  const { wallets } = useWallets()
  const { signMessage } = useSignMessage()
  const { sendTransaction } = useSendTransaction()
  const [result, setResult] = useState<string | null>(null)

  if (!ready) return <p>Loading…</p>

  if (!authenticated || !user)
    return (
      <main>
        <h1>Starter app</h1>
        <button type="button" onClick={() => login()}>
          Get started
        </button>
      </main>
    )

  const embedded = wallets.find((wallet) => wallet.walletClientType === 'latchkey')

  const run = async (action: () => Promise<string>) => {
    try {
      setResult(await action())
    } catch (error) {
      setResult(`Failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  const handleSignMessage = () =>
    run(async () => {
      const { signature } = await signMessage(
        { message: 'Hello, world!' },
        { address: embedded?.address },
      )
      return `Message signed: ${signature.slice(0, 10)}…`
    })

  const handleSendTransaction = () =>
    run(async () => {
      const { hash } = await sendTransaction(
        { to: '0xE3070d3e4309afA3bC9a6b057685743CF42da77C', value: parseEther('0.00001') },
        { address: embedded?.address },
      )
      return `Transaction sent: ${hash.slice(0, 20)}…`
    })

  return (
    <main>
      <button type="button" onClick={logout}>
        Logout
      </button>
      <h2>User</h2>
      <p>
        {user.email?.address ?? user.phone?.number ?? user.id}
        {user.wallet ? ` · wallet ${user.wallet.address}` : ''}
      </p>
      <h2>Wallets</h2>
      <ul>
        {wallets.map((wallet) => (
          <li key={wallet.address}>
            {wallet.address} ({wallet.walletClientType})
          </li>
        ))}
      </ul>
      <h2>Wallet actions</h2>
      <button type="button" disabled={!embedded} onClick={handleSignMessage}>
        Sign message
      </button>
      <button type="button" disabled={!embedded} onClick={handleSendTransaction}>
        Send transaction
      </button>
      {result && <p>{result}</p>}
    </main>
  )
}
