import { SMART_WALLET_TYPES, type SmartWalletType } from '@latchkey/protocol'
import type { Kysely } from 'kysely'
import { getAppById, updateAppSettings } from '../apps/service.ts'
import { consoleLogger, type LatchkeyServerOptions } from '../config.ts'
import { SecretBox } from '../crypto/secrets.ts'
import type { Database } from '../db/types.ts'
import { resolveMasterKey } from '../server.ts'
import { ensurePaymasterSigner, paymasterSignerAddress } from './paymaster-key.ts'
import type {
  SmartWalletChainSettings,
  SmartWalletSettings,
  SponsorshipPolicy,
} from './settings.ts'

export interface SmartWalletCliParameters {
  db: Kysely<Database>
  /** `apps smart-wallets show|set|add-chain|remove-chain|policy|paymaster-key`. */
  key: string
  positionals: string[]
  values: Readonly<Record<string, unknown>>
  /** For the `*-env` flags. */
  env: NodeJS.ProcessEnv
  /** The master key (paymaster-key seals with it). */
  config: LatchkeyServerOptions
  dataDir: string
  out: (line: string) => void
  err: (line: string) => void
}

const text = (values: Readonly<Record<string, unknown>>, flag: string) =>
  typeof values[flag] === 'string' ? (values[flag] as string) : undefined

/** A URL from `--X` or from the variable `--X-env` names; throws naming the flag. */
function urlFlag(parameters: SmartWalletCliParameters, flag: string): string | undefined {
  const direct = text(parameters.values, flag)
  const variable = text(parameters.values, `${flag}-env`)
  if (direct !== undefined && variable !== undefined)
    throw new Error(`Give --${flag} or --${flag}-env, not both`)
  if (variable === undefined) return direct
  const value = parameters.env[variable]
  if (!value) throw new Error(`--${flag}-env: the environment variable ${variable} is not set`)
  return value
}

function chainIdFlag(values: Readonly<Record<string, unknown>>): number {
  const value = text(values, 'chain-id') ?? ''
  if (!/^[1-9][0-9]{0,15}$/.test(value))
    throw new Error('--chain-id must be a positive whole number, e.g. 8453')
  return Number(value)
}

function chainFromFlags(parameters: SmartWalletCliParameters): SmartWalletChainSettings {
  const { values } = parameters
  const bundlerUrl = urlFlag(parameters, 'bundler-url')
  if (!bundlerUrl) throw new Error('add-chain needs --bundler-url or --bundler-url-env')
  const chain: SmartWalletChainSettings = { chain_id: chainIdFlag(values), bundler_url: bundlerUrl }
  const address = text(values, 'paymaster-address')
  const url = urlFlag(parameters, 'paymaster-url')
  const context = text(values, 'paymaster-context')
  if (address !== undefined && url !== undefined)
    throw new Error(
      'Give --paymaster-address (the server signs) or --paymaster-url (ERC-7677), not both',
    )
  if (context !== undefined && url === undefined)
    throw new Error('--paymaster-context goes with --paymaster-url')
  if (address !== undefined) chain.paymaster = { kind: 'server', address: address as `0x${string}` }
  if (url !== undefined) {
    let parsed: unknown
    try {
      parsed = context === undefined ? undefined : JSON.parse(context)
    } catch {
      throw new Error('--paymaster-context must be a JSON object')
    }
    chain.paymaster = {
      kind: 'erc7677',
      url,
      ...(parsed !== undefined ? { context: parsed as Record<string, unknown> } : {}),
    }
  }
  return chain
}

function policyFromFlags(
  values: Readonly<Record<string, unknown>>,
  current: SponsorshipPolicy,
): SponsorshipPolicy {
  const next: SponsorshipPolicy = { ...current }
  const contracts = text(values, 'contracts')
  if (contracts !== undefined)
    next.contracts =
      contracts === 'any'
        ? null
        : contracts
            .split(',')
            .map((item) => item.trim().toLowerCase())
            .filter(Boolean)
  const operations = text(values, 'max-operations-per-day')
  if (operations !== undefined) {
    if (operations !== 'none' && !/^[0-9]{1,9}$/.test(operations))
      throw new Error("--max-operations-per-day must be a whole number or 'none'")
    next.max_operations_per_user_per_day = operations === 'none' ? null : Number(operations)
  }
  const wei = text(values, 'max-gas-cost-per-day')
  if (wei !== undefined) {
    if (wei !== 'none' && !/^[0-9]{1,78}$/.test(wei))
      throw new Error("--max-gas-cost-per-day must be a whole number of wei or 'none'")
    next.max_gas_cost_per_user_per_day = wei === 'none' ? null : wei
  }
  return next
}

/** The settings the command writes; undefined for the commands that write none. */
function nextSettings(
  parameters: SmartWalletCliParameters,
  action: string,
  current: SmartWalletSettings,
): SmartWalletSettings {
  const { values } = parameters
  if (action === 'set') {
    if (values.enable === true && values.disable === true)
      throw new Error('Give --enable or --disable, not both')
    const type = text(values, 'type')
    if (type !== undefined && !(SMART_WALLET_TYPES as readonly string[]).includes(type))
      throw new Error(`--type must be one of ${SMART_WALLET_TYPES.join(', ')}`)
    return {
      ...current,
      ...(values.enable === true ? { enabled: true } : {}),
      ...(values.disable === true ? { enabled: false } : {}),
      ...(type !== undefined ? { type: type as SmartWalletType } : {}),
    }
  }
  if (action === 'add-chain') {
    const chain = chainFromFlags(parameters)
    const others = current.chains.filter((c) => c.chain_id !== chain.chain_id)
    return { ...current, chains: [...others, chain] }
  }
  if (action === 'remove-chain') {
    const chainId = chainIdFlag(values)
    if (!current.chains.some((c) => c.chain_id === chainId))
      throw new Error(`The app has no smart-wallet chain ${chainId}`)
    return { ...current, chains: current.chains.filter((c) => c.chain_id !== chainId) }
  }
  return {
    ...current,
    sponsorship_policy: policyFromFlags(values, current.sponsorship_policy ?? {}),
  }
}

/**
 * Runs `latchkey apps smart-wallets <action> ID` (cli-commands.ts); the exit
 * code. Settings go through `updateAppSettings`, so they are validated as
 * `apps settings --set` validates them (a running server applies them
 * within 5 s). `paymaster-key` creates the app's signer once (sealed) and
 * prints its address.
 *
 * @example
 * await smartWalletCli({ db, key: 'apps smart-wallets paymaster-key', positionals: [appId], values: {}, env, config, dataDir, out, err })
 */
export async function smartWalletCli(parameters: SmartWalletCliParameters): Promise<number> {
  const { db, values, out, err } = parameters
  const action = parameters.key.split(' ')[2] ?? ''
  const [appId = ''] = parameters.positionals
  const app = await getAppById(db, appId)
  if (!app) {
    err(`No app ${appId}`)
    return 1
  }
  if (action === 'paymaster-key') {
    const secrets = new SecretBox(
      resolveMasterKey({ ...parameters.config, logger: consoleLogger }, parameters.dataDir),
    )
    const { address, created } = await ensurePaymasterSigner({ db, secrets }, appId)
    if (values.json === true) out(JSON.stringify({ address, created }))
    else {
      out(`Paymaster signer: ${address}${created ? ' (new)' : ''}`)
      out(
        'Deploy VerifyingPaymaster (v0.7; the v0.8 build for simple_7702) with it as verifyingSigner, fund its EntryPoint deposit, ' +
          `then: latchkey apps smart-wallets add-chain ${appId} --chain-id N --bundler-url-env VAR --paymaster-address 0x…`,
      )
    }
    return 0
  }
  const current: SmartWalletSettings = app.settings.smart_wallets ?? { chains: [] }
  if (action === 'show') {
    const signer = (await paymasterSignerAddress({ db }, appId)) ?? null
    if (values.json === true) out(JSON.stringify({ settings: current, paymaster_signer: signer }))
    else {
      out(JSON.stringify(current, null, 2))
      out(`Paymaster signer: ${signer ?? 'none (latchkey apps smart-wallets paymaster-key)'}`)
    }
    return 0
  }
  let next: SmartWalletSettings
  try {
    next = nextSettings(parameters, action, current)
  } catch (error) {
    err((error as Error).message)
    return 1
  }
  const settings = await updateAppSettings(db, appId, { smart_wallets: next })
  if (values.json === true) out(JSON.stringify(settings.smart_wallets))
  else
    out(
      `Updated the smart-wallet settings of app ${appId} (a running server applies them within 5 s)`,
    )
  return 0
}
