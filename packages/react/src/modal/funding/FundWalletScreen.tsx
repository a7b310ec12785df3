import { LatchkeyError, toLatchkeyError } from '@latchkey/core'
import type { CardProvider, FundingMethod } from '@latchkey/protocol/schemas'
import { useCallback, useEffect, useRef, useState } from 'react'
import { CheckIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { BridgeFromSolanaScreen } from './BridgeFromSolanaScreen.tsx'
import { BridgeFromWalletScreen } from './BridgeFromWalletScreen.tsx'
import { FundingChooserScreen } from './FundingChooserScreen.tsx'
import { OnrampStatusScreen } from './OnrampStatusScreen.tsx'
import { ReceiveFundsScreen } from './ReceiveFundsScreen.tsx'
import type { FundingToken, FundWalletRequest } from './request.ts'
import { injectFundingStyles } from './styles.ts'
import { TransferFromWalletScreen } from './TransferFromWalletScreen.tsx'

/** Spec 03 §9: funding success closes after 4 s. */
export const FUNDING_SUCCESS_CLOSE_MS = 4_000

/**
 * The success screen's text under its 'Success!' title. The spec's bridge line
 * starts with 'Success!' itself ('Success! You’ve successfully added…'): the
 * title says it, so the text below does not say it twice.
 */
export function successText(line: string): string {
  return line.startsWith('Success! ') ? line.slice('Success! '.length) : line
}

/** The popup the providers open in (spec 03 §9: 440 x 680, as cross-app). */
const POPUP_FEATURES = 'width=440,height=680'

type View =
  | { name: 'chooser' }
  | { name: 'receive' }
  | { name: 'transfer' }
  | { name: 'bridge' }
  | { name: 'onramp'; provider: CardProvider; id: string; popup: Window }
  | { name: 'transferred'; amount: string; line?: string }

export interface FundWalletScreenProps {
  request: FundWalletRequest
  /** The wallet was funded: closing resolves `fundWallet` with `{ funded: true }`. */
  onFunded(): void
  onClose(): void
}

/** The card provider 'Pay with card' uses, and the other one (the alternate). */
function cardProviders(request: FundWalletRequest): CardProvider[] {
  const offered = request.options.flatMap((o) =>
    o.method === 'card' && o.provider ? [o.provider] : [],
  )
  const preferred = request.preferredCardProvider
  return preferred && offered.includes(preferred)
    ? [preferred, ...offered.filter((p) => p !== preferred)]
    : offered
}

/**
 * The funding flow (spec 03 §2, §4): the chooser, then Receive funds,
 * Transfer from wallet, or a provider's popup with its status screen.
 * Loaded in its own chunk with the first `fundWallet`.
 */
export default function FundWalletScreen({ request, onFunded, onClose }: FundWalletScreenProps) {
  const [view, setView] = useState<View>({ name: 'chooser' })
  const [token, setToken] = useState<FundingToken | null>(null)
  const [error, setError] = useState<LatchkeyError | null>(request.error ?? null)
  const [alternate, setAlternate] = useState<CardProvider | null>(null)
  const launched = useRef(false)
  injectFundingStyles()

  useEffect(() => {
    let live = true
    request.token().then(
      (read) => live && setToken(read),
      (e: unknown) => live && setError(toLatchkeyError(e)),
    )
    return () => {
      live = false
    }
  }, [request])

  const providers = cardProviders(request)
  const methods = [...new Set(request.options.map((o) => o.method))] as FundingMethod[]

  const startOnramp = useCallback(
    (provider: CardProvider, experience: 'buy' | 'send') => {
      if (!token) return
      setError(null)
      // Opened at once, inside the click: a popup opened after an await is blocked.
      const popup = globalThis.open?.('about:blank', 'latchkey-funding', POPUP_FEATURES) ?? null
      if (!popup) return setError(new LatchkeyError('FUNDING_FLOW_INIT_FAILED'))
      const start =
        provider === 'moonpay'
          ? request.startMoonpay(token)
          : request.startCoinbase(token, experience)
      start.then(
        ({ url, id }) => {
          popup.location.href = url
          setView({ name: 'onramp', provider, id, popup })
        },
        (e: unknown) => {
          popup.close()
          setError(toLatchkeyError(e))
        },
      )
    },
    [request, token],
  )

  const choose = useCallback(
    (method: FundingMethod) => {
      if (method === 'manual') setView({ name: 'receive' })
      else if (method === 'wallets') setView({ name: 'transfer' })
      else if (method === 'exchange') startOnramp('coinbase', 'send')
      else {
        const provider = providers[0]
        if (provider) startOnramp(provider, 'buy')
      }
    },
    [providers, startOnramp],
  )

  // Spec 03 §2: a configured default method is launched once, when the chooser can act.
  useEffect(() => {
    const method = request.defaultFundingMethod
    if (launched.current || !token || !method || !methods.includes(method)) return
    launched.current = true
    choose(method)
  }, [request, token, methods, choose])

  const closeAfterSuccess = view.name === 'transferred'
  useEffect(() => {
    if (!closeAfterSuccess) return
    const timer = setTimeout(onClose, FUNDING_SUCCESS_CLOSE_MS)
    return () => clearTimeout(timer)
  }, [closeAfterSuccess, onClose])

  const toChooser = () => setView({ name: 'chooser' })
  if (view.name === 'receive' && token)
    return (
      <ReceiveFundsScreen
        request={request}
        token={token}
        onBack={toChooser}
        onFunded={onFunded}
        onContinue={onClose}
      />
    )
  const bridged = (amount: string, line: string) => {
    onFunded()
    setView({ name: 'transferred', amount, line })
  }
  const toTransfer = () => setView({ name: 'transfer' })
  // 'Transfer from another network': SOL bridged from Ethereum, or the chain's currency from Solana.
  const { bridge, bridgeFromSolana } = request
  const bridgeable = Boolean(token && !token.address && (bridge ?? bridgeFromSolana))
  if (view.name === 'bridge' && token && request.chainType === 'solana' && bridge)
    return (
      <BridgeFromWalletScreen
        request={{ ...request, bridge }}
        onBack={toTransfer}
        onBridged={bridged}
      />
    )
  if (view.name === 'bridge' && token && request.chainType === 'ethereum' && bridgeFromSolana)
    return (
      <BridgeFromSolanaScreen
        request={{ ...request, bridgeFromSolana }}
        token={token}
        onBack={toTransfer}
        onBridged={bridged}
      />
    )
  if (view.name === 'transfer' && token)
    return (
      <TransferFromWalletScreen
        request={request}
        token={token}
        onBack={toChooser}
        onTransferred={(amount) => {
          onFunded()
          setView({ name: 'transferred', amount })
        }}
        {...(bridgeable ? { onOtherNetwork: () => setView({ name: 'bridge' }) } : {})}
      />
    )
  if (view.name === 'onramp')
    return (
      <OnrampStatusScreen
        request={request}
        provider={view.provider}
        id={view.id}
        popup={view.popup}
        onReturn={(failure) => {
          if (!view.popup.closed) view.popup.close()
          setError(failure)
          // Spec 03 §2: after a failed card attempt, offer the other provider.
          if (failure) setAlternate(providers.find((p) => p !== view.provider) ?? null)
          toChooser()
        }}
        onFunded={onFunded}
        onContinue={onClose}
      />
    )
  if (view.name === 'transferred' && token)
    return (
      <ScreenLayout
        title="Success!"
        subtitle={
          view.line
            ? successText(view.line)
            : `You've added ${view.amount} ${token.symbol} to your wallet. It may take a minute before the funds are available to use.`
        }
        media={
          <StatusIcon tone="success">
            <CheckIcon />
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role="status">
          Transfer complete
        </p>
      </ScreenLayout>
    )
  return (
    <FundingChooserScreen
      request={request}
      methods={methods}
      loading={!token}
      error={error}
      alternate={alternate}
      onChoose={choose}
      onAlternate={(provider) => startOnramp(provider, 'buy')}
    />
  )
}
