import {
  type ConnectedEthereumExternalWallet,
  useSignMessage,
  useSignTypedData,
  useWallets,
} from '@latchkey/react'
import { useMemo } from 'react'
import type { LatchkeyEthereumProvider, LatchkeyWagmiWallet } from './latchkeyConnector.ts'

/** A wallet of {@link useWagmiWallets}: what `latchkeyConnector` takes, and when an external one connected. */
export type WagmiWallet = LatchkeyWagmiWallet & { connectedAt?: number }

type Signers = {
  signMessage: ReturnType<typeof useSignMessage>['signMessage']
  signTypedData: ReturnType<typeof useSignTypedData>['signTypedData']
}

const hexToBytes = (hex: string) =>
  Uint8Array.from(hex.slice(2).match(/../g) ?? [], (byte) => Number.parseInt(byte, 16))

/** The text a personal_sign payload encodes, or null when its bytes are not UTF-8. */
function utf8Text(message: unknown): string | null {
  if (typeof message !== 'string') return null
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(message)) return message
  try {
    // Exact round trip: the sign screen re-encodes the text to these same bytes.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(hexToBytes(message))
  } catch {
    return null
  }
}

/**
 * The embedded wallet's provider, with messages and typed data signed
 * through the modal's "Sign message" screen, as the Latchkey hooks sign
 * them (transactions already go through the confirm screen). Bytes that
 * are not text are signed without the screen: it can only show text.
 */
function confirmingProvider(
  wallet: { address: string; getEthereumProvider(): LatchkeyEthereumProvider },
  signers: Signers,
): LatchkeyEthereumProvider {
  const inner = wallet.getEthereumProvider()
  return {
    async request(args) {
      const params = Array.isArray(args.params) ? args.params : []
      if (args.method === 'personal_sign') {
        const text = utf8Text(params[0])
        if (text !== null) {
          const options = { address: String(params[1] ?? wallet.address) }
          return (await signers.signMessage({ message: text }, options)).signature
        }
      }
      if (args.method === 'eth_signTypedData_v4') {
        const [address, data] = params as [string, unknown]
        const typedData = typeof data === 'string' ? JSON.parse(data) : data
        return (await signers.signTypedData(typedData, { address })).signature
      }
      return inner.request(args)
    },
  }
}

/**
 * The user's Ethereum wallets (`useWallets()`) as wagmi connectors take
 * them: the embedded wallet signs through the modal's screens; connected
 * external wallets are as they are. For hosts that connect wagmi
 * themselves; `<LatchkeyWagmiProvider>` uses it.
 *
 * @example
 * const { wallets } = useWagmiWallets()
 * await connect(wagmiConfig, { connector: latchkeyConnector({ wallet: wallets[0] }) })
 */
export function useWagmiWallets(): { ready: boolean; wallets: WagmiWallet[] } {
  const { ready, wallets } = useWallets()
  const { signMessage } = useSignMessage()
  const { signTypedData } = useSignTypedData()
  const signers = useMemo(() => ({ signMessage, signTypedData }), [signMessage, signTypedData])
  const wrapped = useMemo(
    () =>
      wallets.map((wallet): WagmiWallet => {
        if (wallet.connectorType !== 'embedded') return wallet as ConnectedEthereumExternalWallet
        // One provider per wallet object: the chain it is switched to is kept.
        const provider = confirmingProvider(wallet, signers)
        return {
          address: wallet.address,
          connectorType: wallet.connectorType,
          walletClientType: wallet.walletClientType,
          getEthereumProvider: () => provider,
        }
      }),
    [wallets, signers],
  )
  return { ready, wallets: wrapped }
}
