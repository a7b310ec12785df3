import type { ChainType } from '@latchkey/protocol/schemas'
import { DEFAULT_WALLET_LIST, KNOWN_WALLETS, slugForWallet } from './listings.ts'
import type { WalletChainType, WalletOption } from './types.ts'
import type { ExternalWalletsState } from './wallet-store.ts'

/** Which rows the connect list shows (spec 01 §2, §3 appearance). */
export interface WalletListFilter {
  walletChainType?: WalletChainType
  walletList?: readonly string[]
}

/**
 * The connect list: detected wallets, then the `walletList` entries in their
 * order (default {@link DEFAULT_WALLET_LIST}), one row per wallet, only the
 * chains `walletChainType` asks for (spec 01 §2 "Connect-only wallet screen").
 */
export function walletOptions(
  state: Pick<ExternalWalletsState, 'ethereum' | 'solana'>,
  filter: WalletListFilter,
  { walletConnect }: { walletConnect: boolean },
): WalletOption[] {
  const wantChain = (types: ChainType[]) =>
    filter.walletChainType === 'solana-only'
      ? types.includes('solana')
      : filter.walletChainType === 'ethereum-and-solana'
        ? true
        : types.includes('ethereum')
  const detected = new Map<string, WalletOption>()
  for (const w of state.ethereum) {
    const id = slugForWallet(w.info.name, w.info.rdns)
    // An announced wallet wins over the same wallet's bare window.ethereum.
    if (w.source === 'legacy' && detected.has(id)) continue
    const known = KNOWN_WALLETS[id]
    detected.set(id, {
      ...(known ?? {}),
      key: `eip6963:${w.info.uuid}`,
      id,
      name: w.info.name,
      icon: w.info.icon || known?.icon || null,
      chainTypes: ['ethereum'],
      installed: true,
      kind: 'injected',
    })
  }
  for (const w of state.solana) {
    const id = slugForWallet(w.name)
    const existing = detected.get(id)
    // One row per wallet: an EVM + Solana wallet (Phantom) connects on the chain asked for.
    if (existing && filter.walletChainType !== 'solana-only')
      detected.set(id, { ...existing, chainTypes: [...existing.chainTypes, 'solana'] })
    else {
      const known = KNOWN_WALLETS[id]
      // A two-chain wallet seen only on Solana (Phantom with Ethereum off) is still
      // offered for Ethereum: picking it there explains what to switch on (spec 01 §8).
      const alsoEthereum =
        !existing &&
        filter.walletChainType !== 'solana-only' &&
        known?.chainTypes.includes('ethereum')
      detected.set(id, {
        ...(known ?? {}),
        key: `standard:${w.name}`,
        id,
        name: w.name,
        icon: w.icon ?? null,
        chainTypes: alsoEthereum ? ['solana', 'ethereum'] : ['solana'],
        installed: true,
        kind: 'wallet_standard',
      })
    }
  }
  const list = filter.walletList ?? DEFAULT_WALLET_LIST
  const out: WalletOption[] = []
  const seen = new Set<string>()
  const push = (option: WalletOption) => {
    if (seen.has(option.id) || !wantChain(option.chainTypes)) return
    seen.add(option.id)
    out.push(option)
  }
  for (const entry of list) {
    if (
      entry === 'detected_wallets' ||
      entry === 'detected_ethereum_wallets' ||
      entry === 'detected_solana_wallets'
    ) {
      for (const option of detected.values()) {
        if (entry === 'detected_ethereum_wallets' && !option.chainTypes.includes('ethereum'))
          continue
        if (entry === 'detected_solana_wallets' && !option.chainTypes.includes('solana')) continue
        push(option)
      }
      continue
    }
    const found = detected.get(entry)
    if (found) {
      push(found)
      continue
    }
    const known = KNOWN_WALLETS[entry]
    if (entry === 'wallet_connect') {
      if (walletConnect && known)
        push({ ...known, key: 'wallet_connect', installed: true, kind: 'wallet_connect' })
      continue
    }
    if (entry === 'coinbase_wallet' && known) {
      push({ ...known, key: 'coinbase_wallet', installed: true, kind: 'coinbase_wallet' })
      continue
    }
    if (known) push({ ...known, key: `install:${entry}`, installed: false, kind: 'not_installed' })
  }
  return out
}
