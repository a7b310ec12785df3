import type { AccountTransferInput, LatchkeyError, User } from '@latchkey/core'
import {
  type ConnectedExternalWallet,
  type ExternalWallets,
  KNOWN_WALLETS,
  signInWithEthereum,
  signInWithSolana,
  toWalletError,
  type WalletChainType,
  type WalletOption,
  type WalletSignInStatus,
} from '@latchkey/core/external'
import { SUCCESS_CLOSE_DELAY_MS, WALLET_RETRY_LIMIT } from '@latchkey/protocol/constants'
import type { ChainType } from '@latchkey/protocol/schemas'
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { LatchkeyInstance } from '../../../store.ts'
import { isMobileDevice } from '../../mobile.ts'
import { ErrorScreen } from '../../screens/ErrorScreen.tsx'
import { WalletListScreen } from './WalletList.tsx'
import {
  type ConnectPhase,
  InstallWalletScreen,
  LedgerChoiceScreen,
  MobileRedirectScreen,
  WalletConnectingScreen,
  WalletLoadingScreen,
} from './WalletScreens.tsx'

export interface WalletLoginProps {
  instance: LatchkeyInstance
  /** `login` signs in (or up), `link` adds the wallet, `connect` only connects (no login). */
  mode: 'login' | 'link' | 'connect'
  disableSignup: boolean
  walletChainType: WalletChainType
  walletList: string[] | null
  /**
   * Opens straight on this wallet (its slug): a landing row or a connector
   * hint picked it. The list when the wallet is not on offer.
   */
  initialWallet?: string
  /** Signed in (or linked); the flow shows 'Successfully connected with {walletName}'. */
  onDone(result: { user: User; isNewUser: boolean; walletName: string }): void
  /** Connect-only: connected, after the success screen's 1.4 s. */
  onConnected(wallet: ConnectedExternalWallet): void
  /**
   * A failure the flow reports (login event) and may route (spec 02 §8:
   * account not found, allowlist, limit, transfer…), with the wallet tried.
   */
  onError(error: LatchkeyError, account?: AccountTransferInput): void
  onBack?: () => void
}

type View =
  | { view: 'list' }
  | { view: 'install'; option: WalletOption }
  | { view: 'mobile'; option: WalletOption }
  | { view: 'ledger'; option: WalletOption }
  | {
      view: 'connecting'
      option: WalletOption
      chainType: ChainType
      phase: ConnectPhase
      error: LatchkeyError | null
      uri: string | null
      ledger?: boolean
    }

const PHASES: Record<WalletSignInStatus, ConnectPhase> = {
  'switching-chain': 'switching',
  'awaiting-signature': 'sign',
  verifying: 'signing',
}

/** The chain a row connects on: Solana-only lists use Solana; a two-chain wallet its first chain. */
export function chainTypeFor(option: WalletOption, walletChainType: WalletChainType): ChainType {
  if (walletChainType === 'solana-only') return 'solana'
  if (walletChainType === 'ethereum-only') return 'ethereum'
  const preferred = KNOWN_WALLETS[option.id]?.chainTypes[0]
  return preferred && option.chainTypes.includes(preferred)
    ? preferred
    : (option.chainTypes[0] ?? 'ethereum')
}

const noStore = { subscribe: () => () => {}, get: () => null }

/**
 * External wallet login, link and connect-only (spec 01 "Wallet
 * connecting"): the list, then connect → switch chain → sign → verify, with
 * at most 2 retries before only 'Use a different wallet' remains.
 */
export default function WalletLogin({
  instance,
  mode,
  disableSignup,
  walletChainType,
  walletList,
  initialWallet,
  onDone,
  onConnected,
  onError,
  onBack,
}: WalletLoginProps) {
  const { client } = instance
  const [manager, setManager] = useState<ExternalWallets | null>(() =>
    instance.externalWallets.peek(),
  )
  const [loadError, setLoadError] = useState<LatchkeyError | null>(null)
  const [view, setView] = useState<View>({ view: 'list' })
  const [retries, setRetries] = useState(0)
  const attempt = useRef(0)
  const timers = useRef<ReturnType<typeof setTimeout>[]>([])
  useEffect(
    () => () => {
      // A connection that settles after the modal closed is ignored.
      attempt.current++
      for (const timer of timers.current) clearTimeout(timer)
    },
    [],
  )

  useEffect(() => {
    if (manager) return
    let live = true
    instance.externalWallets.load().then(
      (loaded) => live && setManager(loaded),
      (error) => live && setLoadError(toWalletError(error)),
    )
    return () => {
      live = false
    }
  }, [instance, manager])

  // The wallet picked before this screen: picked once the list is known.
  const pickRef = useRef<((option: WalletOption) => void) | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per manager; the list is read when it arrives
  useEffect(() => {
    const option = initialWallet
      ? manager?.options({ walletChainType, walletList: [initialWallet] })[0]
      : undefined
    if (!option) return
    // After StrictMode's mount → unmount → mount, so the wallet is asked once.
    let live = true
    queueMicrotask(() => live && pickRef.current?.(option))
    return () => {
      live = false
    }
  }, [manager])

  const store = manager ?? noStore
  useSyncExternalStore(
    store.subscribe,
    manager ? manager.getState : noStore.get,
    manager ? manager.getState : noStore.get,
  )

  const title =
    mode === 'link'
      ? 'Link a wallet'
      : mode === 'connect'
        ? 'Connect a wallet'
        : 'Log in with a wallet'
  if (loadError) return <ErrorScreen code={loadError.code} onBack={onBack} />
  if (!manager) return <WalletLoadingScreen title={title} onBack={onBack} />

  const update = (id: number, patch: Partial<Extract<View, { view: 'connecting' }>>) => {
    if (attempt.current !== id) return
    setView((current) => (current.view === 'connecting' ? { ...current, ...patch } : current))
  }

  const run = async (option: WalletOption, chainType: ChainType, ledger?: boolean) => {
    const id = ++attempt.current
    setView({
      view: 'connecting',
      option,
      chainType,
      phase: 'waiting',
      error: null,
      uri: null,
      ledger,
    })
    let account: AccountTransferInput | undefined
    try {
      const wallet = await manager.connect(option.key, chainType, {
        onDisplayUri: (uri) => update(id, { uri }),
      })
      if (attempt.current !== id) return
      if (mode === 'connect') {
        update(id, { phase: 'success', uri: null })
        timers.current.push(setTimeout(() => onConnected(wallet), SUCCESS_CLOSE_DELAY_MS))
        return
      }
      if (
        wallet.type === 'solana' &&
        ledger === undefined &&
        option.id === 'phantom' &&
        wallet.signTransaction
      )
        return setView({ view: 'ledger', option })
      update(id, { uri: null })
      account = {
        address: wallet.address,
        walletClientType: wallet.walletClientType,
        connectorType: wallet.connectorType,
        ...(wallet.chainId ? { chainId: wallet.chainId } : {}),
      }
      const onStatus = (status: WalletSignInStatus) => update(id, { phase: PHASES[status] })
      const options = {
        intent: mode === 'link' ? ('link' as const) : ('login' as const),
        mode: disableSignup ? ('no-signup' as const) : ('login-or-sign-up' as const),
        onStatus,
      }
      const result =
        wallet.type === 'ethereum'
          ? await signInWithEthereum(client, wallet, {
              ...options,
              chains: manager.chains,
              defaultChain: manager.defaultChain,
            })
          : await signInWithSolana(client, wallet, {
              ...options,
              messageType: ledger ? 'transaction' : 'plain',
            })
      if (attempt.current !== id) return
      onDone({ ...result, walletName: option.name })
    } catch (cause) {
      if (attempt.current !== id) return
      const error = toWalletError(cause)
      onError(error, account)
      if (error.code === 'USER_DOES_NOT_EXIST') return
      update(id, { phase: 'error', error, uri: null })
    }
  }

  const pick = (option: WalletOption) => {
    setRetries(0)
    if (option.kind === 'not_installed')
      return setView(
        isMobileDevice() && option.mobileBrowseUrl
          ? { view: 'mobile', option }
          : { view: 'install', option },
      )
    void run(option, chainTypeFor(option, walletChainType))
  }
  pickRef.current = pick
  const backToList = () => {
    attempt.current++
    setRetries(0)
    setView({ view: 'list' })
  }

  switch (view.view) {
    case 'list':
      return (
        <WalletListScreen
          options={manager.options({
            walletChainType,
            ...(walletList ? { walletList } : {}),
          })}
          collapsible={mode === 'connect'}
          title={title}
          recentId={manager.recent()?.walletClientType ?? null}
          onPick={pick}
          onBack={onBack}
        />
      )
    case 'install':
      return <InstallWalletScreen option={view.option} onBack={backToList} />
    case 'mobile':
      return (
        <MobileRedirectScreen
          option={view.option}
          connectOnly={mode === 'connect'}
          onBack={backToList}
        />
      )
    case 'ledger':
      return (
        <LedgerChoiceScreen
          option={view.option}
          onChoose={(ledger) => void run(view.option, 'solana', ledger)}
          onBack={backToList}
        />
      )
    case 'connecting': {
      const exhausted = view.phase === 'error' && retries >= WALLET_RETRY_LIMIT
      return (
        <WalletConnectingScreen
          option={view.option}
          phase={view.phase}
          error={view.error}
          uri={view.uri}
          canRetry={Boolean(view.error?.userMessage.retryable)}
          exhausted={exhausted}
          onRetry={() => {
            setRetries((n) => n + 1)
            void run(view.option, view.chainType, view.ledger)
          }}
          onOtherWallet={backToList}
        />
      )
    }
  }
}
