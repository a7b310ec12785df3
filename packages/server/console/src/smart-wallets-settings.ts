import type { SmartWalletType } from '@latchkey/protocol'
import type { Settings } from './api.ts'

// `settings.smart_wallets` (packages/server/src/smart-wallets/settings.ts) as
// form fields, and back into the patch Save sends: the whole `smart_wallets`
// object (a top-level key replaces), only when a field changed. The server
// validates it as `apps smart-wallets` does, so a bad value shows its message;
// what the fields cannot read (a chain id that is not a number) is passed on
// for it to refuse by name. Only the paymaster context's JSON is refused here.

/** The account types and what each is, in the order the form offers them. */
export const SMART_WALLET_TYPE_OPTIONS: ReadonlyArray<{ type: SmartWalletType; summary: string }> =
  [
    {
      type: 'safe',
      summary: 'Safe 1.4.1 with its ERC-4337 module: a contract account the embedded wallet owns.',
    },
    {
      type: 'simple',
      summary: 'SimpleAccount v0.7 (eth-infinitism): a minimal contract account the wallet owns.',
    },
    {
      type: 'simple_7702',
      summary:
        "The embedded wallet's own address, upgraded by EIP-7702 (Simple7702Account); chains with Pectra only.",
    },
  ]

export const PAYMASTER_KINDS = ['none', 'server', 'erc7677'] as const
export type PaymasterKind = (typeof PAYMASTER_KINDS)[number]

export interface SmartWalletChainFields {
  chainId: string
  bundlerUrl: string
  /** none: the users pay their own gas; server: our VerifyingPaymaster; erc7677: a paymaster service. */
  paymaster: PaymasterKind
  /** The VerifyingPaymaster's address (kind server). */
  paymasterAddress: string
  /** The ERC-7677 service's URL (kind erc7677). */
  paymasterUrl: string
  /** The ERC-7677 context as JSON (empty: none). */
  paymasterContext: string
}

export interface SmartWalletFields {
  enabled: boolean
  type: SmartWalletType
  chains: SmartWalletChainFields[]
  /** Contract addresses, one a line or comma-separated; empty: any. */
  contracts: string
  /** Empty: no limit. */
  maxOperations: string
  /** Wei; empty: no limit. */
  maxGasCost: string
}

type Obj = Record<string, unknown>
const obj = (value: unknown): Obj =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {}
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
const text = (value: unknown) => (typeof value === 'string' ? value : '')
const known = (type: unknown): type is SmartWalletType =>
  SMART_WALLET_TYPE_OPTIONS.some((option) => option.type === type)

/** A chain row with nothing in it (the "Add chain" button). */
export const emptyChain = (): SmartWalletChainFields => ({
  chainId: '',
  bundlerUrl: '',
  paymaster: 'none',
  paymasterAddress: '',
  paymasterUrl: '',
  paymasterContext: '',
})

function chainFieldsOf(value: unknown): SmartWalletChainFields {
  const chain = obj(value)
  const paymaster = obj(chain.paymaster)
  const kind = paymaster.kind === 'server' || paymaster.kind === 'erc7677' ? paymaster.kind : 'none'
  return {
    chainId: chain.chain_id === undefined ? '' : String(chain.chain_id),
    bundlerUrl: text(chain.bundler_url),
    paymaster: kind,
    paymasterAddress: text(paymaster.address),
    paymasterUrl: text(paymaster.url),
    paymasterContext:
      paymaster.context === undefined ? '' : JSON.stringify(paymaster.context, null, 2),
  }
}

export function smartWalletFieldsOf(settings: Settings): SmartWalletFields {
  const wallets = obj(settings.smart_wallets)
  const policy = obj(wallets.sponsorship_policy)
  const number = (value: unknown) =>
    typeof value === 'number' || typeof value === 'string' ? String(value) : ''
  return {
    enabled: wallets.enabled === true,
    type: known(wallets.type) ? wallets.type : 'safe',
    chains: list(wallets.chains).map(chainFieldsOf),
    contracts: list(policy.contracts).map(String).join('\n'),
    maxOperations: number(policy.max_operations_per_user_per_day),
    maxGasCost: number(policy.max_gas_cost_per_user_per_day),
  }
}

/** Addresses from lines or commas, lowercase (as the policy stores them); empty: null (any). */
export function contractsOf(text: string): string[] | null {
  const contracts = text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((address) => address.toLowerCase())
  return contracts.length > 0 ? contracts : null
}

function chainOf(fields: SmartWalletChainFields, index: number): Obj {
  const id = fields.chainId.trim()
  const chain: Obj = {
    chain_id: /^\d+$/.test(id) ? Number(id) : id,
    bundler_url: fields.bundlerUrl.trim(),
  }
  if (fields.paymaster === 'server')
    chain.paymaster = { kind: 'server', address: fields.paymasterAddress.trim() }
  if (fields.paymaster === 'erc7677') {
    const paymaster: Obj = { kind: 'erc7677', url: fields.paymasterUrl.trim() }
    const context = fields.paymasterContext.trim()
    if (context) {
      try {
        paymaster.context = JSON.parse(context)
      } catch {
        throw new Error(`smart_wallets: chains[${index}].paymaster.context is not valid JSON`)
      }
    }
    chain.paymaster = paymaster
  }
  return chain
}

function policyOf(fields: SmartWalletFields): Obj | undefined {
  const contracts = contractsOf(fields.contracts)
  const ops = fields.maxOperations.trim()
  const wei = fields.maxGasCost.trim()
  if (!contracts && !ops && !wei) return undefined
  return {
    contracts,
    max_operations_per_user_per_day: ops === '' ? null : /^\d+$/.test(ops) ? Number(ops) : ops,
    max_gas_cost_per_user_per_day: wei === '' ? null : wei,
  }
}

/**
 * The patch that makes `settings` show `fields`: `{ smart_wallets }` whole
 * when a field changed, else `{}`. Throws an Error naming the chain whose
 * paymaster context is not JSON.
 *
 * @example
 * smartWalletsPatchOf({ ...smartWalletFieldsOf(settings), enabled: true }, settings)
 * // { smart_wallets: { enabled: true, type: 'safe', chains: [] } }
 */
export function smartWalletsPatchOf(fields: SmartWalletFields, settings: Settings): Settings {
  if (JSON.stringify(fields) === JSON.stringify(smartWalletFieldsOf(settings))) return {}
  const smartWallets: Obj = {
    enabled: fields.enabled,
    type: fields.type,
    chains: fields.chains.map(chainOf),
  }
  const policy = policyOf(fields)
  if (policy) smartWallets.sponsorship_policy = policy
  return { smart_wallets: smartWallets }
}
