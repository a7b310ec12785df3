import type { ConnectedEthereumExternalWallet } from '@latchkey/core/external'
import { type BridgeDirection, BridgeFlow } from './BridgeFlow.tsx'
import type { FundWalletRequest } from './request.ts'

/** Spec 03 "Solana bridge-funding": the success line (the modal closes 4 s later). */
export const bridgeSuccessLine = (amount: string, app: string | null) =>
  `Success! You’ve successfully added ${amount} SOL to your ${app ?? 'embedded'} wallet. It may take a minute before the funds are available to use.`

export interface BridgeFromWalletScreenProps {
  request: FundWalletRequest & { bridge: NonNullable<FundWalletRequest['bridge']> }
  onBack(): void
  /** The SOL arrived: the success screen with this line. */
  onBridged(amount: string, line: string): void
}

/**
 * Spec 03 'Transfer from another network' (Solana bridge-funding): an
 * external Ethereum wallet, the SOL amount, then one option per chain the
 * wallet holds funds on (what it pays there), the deposit, and the bridge
 * followed until the SOL arrives (BridgeFlow.tsx).
 */
export function BridgeFromWalletScreen({
  request,
  onBack,
  onBridged,
}: BridgeFromWalletScreenProps) {
  const direction: BridgeDirection<ConnectedEthereumExternalWallet> = {
    from: 'ethereum',
    symbol: 'SOL',
    quoting: 'Checking balances and bridge quotes on your networks.',
    steps: {
      confirm: ['Confirm in your wallet', 'Approve the deposit in your wallet to continue.'],
      submitted: ['Deposit in progress', 'Waiting for the deposit to be confirmed.'],
      bridging: ['Bridging to Solana', 'Your funds are on their way. This usually takes a minute.'],
    },
    options: (wallet, amount) => request.bridge.options(wallet, amount),
    send: (wallet, option, onStep) => request.bridge.send(wallet, option, onStep),
    successLine: (amount) => bridgeSuccessLine(amount, request.walletName),
  }
  return (
    <BridgeFlow request={request} direction={direction} onBack={onBack} onBridged={onBridged} />
  )
}
