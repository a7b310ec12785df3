import {
  SMART_WALLET_TYPES,
  SMART_WALLET_VERSIONS,
  type SmartWalletConfig,
  type SmartWalletType,
} from '@latchkey/protocol'

/** Where an app's sponsorship comes from on one chain. */
export type SmartWalletPaymasterSettings =
  /** A paymaster service speaking ERC-7677 (Pimlico, Alchemy, …); `url` and `context` stay on the server. */
  | { kind: 'erc7677'; url: string; context?: Record<string, unknown> }
  /** A VerifyingPaymaster the operator deployed with the app's paymaster signer (`latchkey apps smart-wallets paymaster-key`). */
  | { kind: 'server'; address: `0x${string}` }

export interface SmartWalletChainSettings {
  chain_id: number
  /** The ERC-4337 bundler's JSON-RPC url: server-side only, never in the public config. */
  bundler_url: string
  /** Without one the user's account pays its own gas. */
  paymaster?: SmartWalletPaymasterSettings
}

/** Limits on what the server's own paymaster (kind 'server') signs; null or absent: no limit. */
export interface SponsorshipPolicy {
  /** Calls may only target these addresses (lowercase); null: any. */
  contracts?: string[] | null
  /** Sponsored operations per user per 24 hours, all chains together. */
  max_operations_per_user_per_day?: number | null
  /** Wei (a decimal string) per user per 24 hours on each chain: the sum of the operations' max cost. */
  max_gas_cost_per_user_per_day?: string | null
}

/**
 * An app's smart-wallet settings (`settings.smart_wallets`,
 * docs/smart-wallets.md "Settings"). The paymaster signer is a credential,
 * sealed, not a setting.
 *
 * @example
 * { enabled: true, type: 'safe',
 *   chains: [{ chain_id: 8453, bundler_url: 'https://api.pimlico.io/v2/8453/rpc?apikey=…',
 *              paymaster: { kind: 'server', address: '0x…' } }],
 *   sponsorship_policy: { contracts: ['0x…'], max_operations_per_user_per_day: 20 } }
 */
export interface SmartWalletSettings {
  /** Default false. */
  enabled?: boolean
  /** Default 'safe'. */
  type?: SmartWalletType
  chains: SmartWalletChainSettings[]
  sponsorship_policy?: SponsorshipPolicy
}

const KEYS = ['enabled', 'type', 'chains', 'sponsorship_policy']
const POLICY_KEYS = [
  'contracts',
  'max_operations_per_user_per_day',
  'max_gas_cost_per_user_per_day',
]
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const WEI = /^[0-9]{1,78}$/

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** An http(s) URL (a bundler or paymaster service). */
function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}

function assertPaymaster(value: unknown, where: string, fail: (message: string) => never): void {
  if (!isObject(value)) fail(`${where}.paymaster must be an object`)
  const p = value as Record<string, unknown>
  if (p.kind === 'erc7677') {
    if (!isHttpUrl(p.url)) fail(`${where}.paymaster.url must be an http(s) URL`)
    if (p.context !== undefined && !isObject(p.context))
      fail(`${where}.paymaster.context must be an object`)
    if (Object.keys(p).some((k) => !['kind', 'url', 'context'].includes(k)))
      fail(`${where}.paymaster of kind erc7677 has only kind, url and context`)
    return
  }
  if (p.kind === 'server') {
    if (typeof p.address !== 'string' || !ADDRESS.test(p.address))
      fail(`${where}.paymaster.address must be the VerifyingPaymaster's 0x address (40 hex digits)`)
    if (Object.keys(p).some((k) => k !== 'kind' && k !== 'address'))
      fail(`${where}.paymaster of kind server has only kind and address`)
    return
  }
  fail(`${where}.paymaster.kind must be erc7677 or server`)
}

function assertPolicy(value: unknown, fail: (message: string) => never): void {
  if (!isObject(value)) fail('sponsorship_policy must be an object')
  const p = value as Record<string, unknown>
  const unknown = Object.keys(p).filter((k) => !POLICY_KEYS.includes(k))
  if (unknown.length > 0)
    fail(`sponsorship_policy: unknown key ${unknown.join(', ')} (known: ${POLICY_KEYS.join(', ')})`)
  if (p.contracts !== undefined && p.contracts !== null) {
    if (!Array.isArray(p.contracts)) fail('sponsorship_policy.contracts must be a list or null')
    for (const contract of p.contracts as unknown[])
      if (typeof contract !== 'string' || !/^0x[0-9a-f]{40}$/.test(contract))
        fail('sponsorship_policy.contracts must be lowercase 0x addresses (40 hex digits)')
  }
  const ops = p.max_operations_per_user_per_day
  if (ops !== undefined && ops !== null && !(Number.isSafeInteger(ops) && (ops as number) >= 0))
    fail(
      'sponsorship_policy.max_operations_per_user_per_day must be a whole number (0 or more) or null',
    )
  const wei = p.max_gas_cost_per_user_per_day
  if (wei !== undefined && wei !== null && (typeof wei !== 'string' || !WEI.test(wei)))
    fail(
      "sponsorship_policy.max_gas_cost_per_user_per_day must be wei as a decimal string, e.g. '10000000000000000', or null",
    )
}

/**
 * `settings.smart_wallets` as `apps settings --set` (or `apps smart-wallets`)
 * writes it: throws an Error naming the field at fault (the CLI prints it).
 */
export function assertSmartWalletSettings(value: unknown): asserts value is SmartWalletSettings {
  const fail = (message: string): never => {
    throw new Error(`smart_wallets: ${message}`)
  }
  if (!isObject(value)) fail('must be an object')
  const s = value as Record<string, unknown>
  const unknown = Object.keys(s).filter((k) => !KEYS.includes(k))
  if (unknown.length > 0) fail(`unknown key ${unknown.join(', ')} (known: ${KEYS.join(', ')})`)
  if (s.enabled !== undefined && typeof s.enabled !== 'boolean')
    fail('enabled must be true or false')
  if (s.type !== undefined && !(SMART_WALLET_TYPES as readonly unknown[]).includes(s.type))
    fail(`type must be one of ${SMART_WALLET_TYPES.join(', ')}`)
  if (!Array.isArray(s.chains)) fail('chains must be a list (it may be empty)')
  const seen = new Set<number>()
  for (const [i, chain] of (s.chains as unknown[]).entries()) {
    const where = `chains[${i}]`
    if (!isObject(chain)) fail(`${where} must be { chain_id, bundler_url, paymaster? }`)
    const c = chain as Record<string, unknown>
    if (!Number.isSafeInteger(c.chain_id) || (c.chain_id as number) <= 0)
      fail(`${where}.chain_id must be a positive whole number, e.g. 8453`)
    if (seen.has(c.chain_id as number)) fail(`chain ${c.chain_id} is listed twice`)
    seen.add(c.chain_id as number)
    if (!isHttpUrl(c.bundler_url)) fail(`${where}.bundler_url must be an http(s) URL`)
    if (c.paymaster !== undefined) assertPaymaster(c.paymaster, where, fail)
    if (Object.keys(c).some((k) => !['chain_id', 'bundler_url', 'paymaster'].includes(k)))
      fail(`${where} has only chain_id, bundler_url and paymaster`)
  }
  if (s.sponsorship_policy !== undefined) assertPolicy(s.sponsorship_policy, fail)
}

/** The settings of one chain when smart wallets are on and the chain is configured; else undefined. */
export function smartWalletChain(
  settings: SmartWalletSettings | undefined,
  chainId: number,
): SmartWalletChainSettings | undefined {
  if (!settings?.enabled) return undefined
  return settings.chains.find((chain) => chain.chain_id === chainId)
}

/**
 * `smart_wallet_config` of `GET /api/v1/apps/:id`: the type, its version and
 * which chains are sponsored; null when smart wallets are off. Bundler and
 * paymaster URLs stay on the server (the browser reaches them through
 * `routes.smartWalletRpc`).
 */
export function toSmartWalletConfig(
  settings: SmartWalletSettings | undefined,
): SmartWalletConfig | null {
  if (!settings?.enabled) return null
  const type = settings.type ?? 'safe'
  return {
    type,
    version: SMART_WALLET_VERSIONS[type],
    chains: settings.chains.map((chain) => ({
      chain_id: chain.chain_id,
      sponsored: chain.paymaster !== undefined,
    })),
  }
}
