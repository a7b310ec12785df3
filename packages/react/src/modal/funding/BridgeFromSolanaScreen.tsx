import type { ConnectedSolanaExternalWallet } from '@latchkey/core/external'
import { type BridgeDirection, BridgeFlow } from './BridgeFlow.tsx'
import type { FundingToken, FundWalletRequest } from './request.ts'

/** The success line of a bridge to Ethereum, worded as spec 03's Solana one (closes 4 s later). */
export const bridgeToEthereumSuccessLine = (amount: string, symbol: string, app: string | null) =>
  `Success! You’ve successfully added ${amount} ${symbol} to your ${app ?? 'embedded'} wallet. It may take a minute before the funds are available to use.`

export interface BridgeFromSolanaScreenProps {
  request: FundWalletRequest & {
    bridgeFromSolana: NonNullable<FundWalletRequest['bridgeFromSolana']>
  }
  /** The chain's native currency: what the amount is asked in. */
  token: FundingToken
  onBack(): void
  /** The funds arrived: the success screen with this line. */
  onBridged(amount: string, line: string): void
}

/**
 * Spec 03 'Transfer from another network', Solana → Ethereum: an external
 * Solana wallet, the amount of the chain's currency, the SOL it costs (the
 * wallet's balance beside it), the deposit signed in the wallet, and the
 * bridge followed until the funds arrive (BridgeFlow.tsx).
 */
export function BridgeFromSolanaScreen({
  request,
  token,
  onBack,
  onBridged,
}: BridgeFromSolanaScreenProps) {
  const bridge = request.bridgeFromSolana
  const direction: BridgeDirection<ConnectedSolanaExternalWallet> = {
    from: 'solana',
    symbol: token.symbol,
    quoting: 'Checking your SOL balance and a bridge quote.',
    steps: {
      confirm: ['Confirm in your wallet', 'Approve the deposit in your wallet to continue.'],
      submitted: ['Deposit in progress', 'Waiting for the deposit to be confirmed.'],
      bridging: [
        `Bridging to ${request.network}`,
        'Your funds are on their way. This usually takes a minute.',
      ],
    },
    options: (wallet, amount) => bridge.options(wallet, amount),
    send: (wallet, option, onStep) => bridge.send(wallet, option, onStep),
    successLine: (amount) => bridgeToEthereumSuccessLine(amount, token.symbol, request.walletName),
  }
  return (
    <BridgeFlow request={request} direction={direction} onBack={onBack} onBridged={onBridged} />
  )
}
