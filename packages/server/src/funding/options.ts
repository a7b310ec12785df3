import type { SplTokenInfoQuery } from '@latchkey/protocol'

/** A Solana cluster `GET /api/v1/spl_token_info` reads mints on. */
export type SolanaCluster = SplTokenInfoQuery['cluster']

/**
 * Where funding talks to (docs/funding.md "Server options"): MoonPay's widget
 * and API hosts, Coinbase's Onramp API and pay page, the bridge-quote
 * service, and a Solana RPC endpoint per cluster. Provider keys are not
 * here: they are per-app credentials (apps/credentials.ts), sealed at rest.
 */
export interface FundingServerOptions {
  moonpay: {
    /** The buy widget (default https://buy.moonpay.com). */
    widgetUrl: string
    /** The sandbox buy widget (default https://buy-sandbox.moonpay.com). */
    sandboxWidgetUrl: string
    /** MoonPay's REST API the modal polls status on (default https://api.moonpay.com). */
    apiUrl: string
  }
  coinbase: {
    /** Coinbase Developer Platform API root (default https://api.developer.coinbase.com). */
    apiUrl: string
    /** The Onramp pay page (default https://pay.coinbase.com). */
    payUrl: string
    /** Give up on a Coinbase call after this long: ONRAMP_PROVIDER_ERROR (default 10 s). */
    timeoutMs: number
  }
  /** The bridge-quote service (`/quote`, `/requests/v2`) the modal calls; null: bridging off. */
  bridge: { apiUrl: string; testnetApiUrl: string } | null
  /** JSON-RPC endpoint per cluster (default the public Solana endpoints). */
  solanaRpcUrls: Record<SolanaCluster, string>
  /** Give up on a Solana RPC call after this long: TOKEN_DETAILS_FAILED (default 10 s). */
  solanaRpcTimeoutMs: number
}

/** The option of {@link createLatchkeyServer}: any value left out keeps its default. */
export interface FundingOptions {
  moonpay?: Partial<FundingServerOptions['moonpay']>
  coinbase?: Partial<FundingServerOptions['coinbase']>
  bridge?: Partial<NonNullable<FundingServerOptions['bridge']>> | null
  solanaRpcUrls?: Partial<Record<SolanaCluster, string>>
  solanaRpcTimeoutMs?: number
}

/** The real services (the bridge: Relay's documented API hosts). */
export const defaultFundingOptions: FundingServerOptions = {
  moonpay: {
    widgetUrl: 'https://buy.moonpay.com',
    sandboxWidgetUrl: 'https://buy-sandbox.moonpay.com',
    apiUrl: 'https://api.moonpay.com',
  },
  coinbase: {
    apiUrl: 'https://api.developer.coinbase.com',
    payUrl: 'https://pay.coinbase.com',
    timeoutMs: 10_000,
  },
  bridge: { apiUrl: 'https://api.relay.link', testnetApiUrl: 'https://api.testnets.relay.link' },
  solanaRpcUrls: {
    'mainnet-beta': 'https://api.mainnet-beta.solana.com',
    devnet: 'https://api.devnet.solana.com',
    testnet: 'https://api.testnet.solana.com',
  },
  solanaRpcTimeoutMs: 10_000,
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * The options with defaults filled in, each URL checked to be http(s)
 * without credentials, query or fragment, and without a trailing `/`. In
 * production they must be https (loopback excepted, for local fakes): the
 * Coinbase API receives the app's signed key JWTs.
 */
export function resolveFundingOptions(
  options: FundingOptions = {},
  production = false,
): FundingServerOptions {
  const check = (name: string, value: string): string => {
    let url: URL
    try {
      url = new URL(value)
    } catch {
      throw new Error(`funding.${name} is not a URL: ${value}`)
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new Error(`funding.${name} must be an http(s) URL`)
    if (url.username || url.password || url.search || url.hash)
      throw new Error(`funding.${name} must have no credentials, query or fragment`)
    if (production && url.protocol !== 'https:' && !LOOPBACK_HOSTS.has(url.hostname))
      throw new Error(`funding.${name} must be https in production`)
    return url.href.replace(/\/+$/, '')
  }
  const positive = (name: string, value: number): number => {
    if (!Number.isFinite(value) || value <= 0) throw new Error(`funding.${name} must be positive`)
    return value
  }
  const d = defaultFundingOptions
  const moonpay = { ...d.moonpay, ...(options.moonpay ?? {}) }
  const coinbase = { ...d.coinbase, ...(options.coinbase ?? {}) }
  const bridge = options.bridge === null ? null : { ...d.bridge, ...(options.bridge ?? {}) }
  const rpc = { ...d.solanaRpcUrls, ...(options.solanaRpcUrls ?? {}) }
  return {
    moonpay: {
      widgetUrl: check('moonpay.widgetUrl', moonpay.widgetUrl),
      sandboxWidgetUrl: check('moonpay.sandboxWidgetUrl', moonpay.sandboxWidgetUrl),
      apiUrl: check('moonpay.apiUrl', moonpay.apiUrl),
    },
    coinbase: {
      apiUrl: check('coinbase.apiUrl', coinbase.apiUrl),
      payUrl: check('coinbase.payUrl', coinbase.payUrl),
      timeoutMs: positive('coinbase.timeoutMs', coinbase.timeoutMs),
    },
    bridge: bridge && {
      apiUrl: check('bridge.apiUrl', bridge.apiUrl as string),
      testnetApiUrl: check('bridge.testnetApiUrl', bridge.testnetApiUrl as string),
    },
    solanaRpcUrls: {
      'mainnet-beta': check('solanaRpcUrls.mainnet-beta', rpc['mainnet-beta']),
      devnet: check('solanaRpcUrls.devnet', rpc.devnet),
      testnet: check('solanaRpcUrls.testnet', rpc.testnet),
    },
    solanaRpcTimeoutMs: positive('solanaRpcTimeoutMs', options.solanaRpcTimeoutMs ?? 10_000),
  }
}

/**
 * The funding options from the environment (docs/funding.md): LATCHKEY_MOONPAY_WIDGET_URL,
 * LATCHKEY_MOONPAY_SANDBOX_WIDGET_URL, LATCHKEY_MOONPAY_API_URL,
 * LATCHKEY_COINBASE_API_URL, LATCHKEY_COINBASE_PAY_URL, LATCHKEY_BRIDGE_API_URL
 * and LATCHKEY_BRIDGE_TESTNET_API_URL (`off`: bridging off), and
 * LATCHKEY_SOLANA_RPC_URLS (`devnet=https://…,mainnet-beta=https://…`).
 * Called by `loadConfigFromEnv` with its `env` (config.ts stays the one reader
 * of the environment).
 */
export function fundingOptionsFromEnv(env: NodeJS.ProcessEnv): FundingOptions {
  const pick = <K extends string>(pairs: Record<K, string>) =>
    Object.fromEntries(
      Object.entries(pairs).flatMap(([key, name]) =>
        env[name as string] ? [[key, env[name as string]]] : [],
      ),
    ) as Partial<Record<K, string>>
  const options: FundingOptions = {
    moonpay: pick({
      widgetUrl: 'LATCHKEY_MOONPAY_WIDGET_URL',
      sandboxWidgetUrl: 'LATCHKEY_MOONPAY_SANDBOX_WIDGET_URL',
      apiUrl: 'LATCHKEY_MOONPAY_API_URL',
    }),
    coinbase: pick({ apiUrl: 'LATCHKEY_COINBASE_API_URL', payUrl: 'LATCHKEY_COINBASE_PAY_URL' }),
    bridge:
      env.LATCHKEY_BRIDGE_API_URL === 'off'
        ? null
        : pick({
            apiUrl: 'LATCHKEY_BRIDGE_API_URL',
            testnetApiUrl: 'LATCHKEY_BRIDGE_TESTNET_API_URL',
          }),
  }
  const rpc = env.LATCHKEY_SOLANA_RPC_URLS
  if (rpc) {
    const urls: Partial<Record<SolanaCluster, string>> = {}
    for (const entry of rpc
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)) {
      const at = entry.indexOf('=')
      const cluster = entry.slice(0, at)
      if (at < 1 || !['mainnet-beta', 'devnet', 'testnet'].includes(cluster))
        throw new Error(
          `LATCHKEY_SOLANA_RPC_URLS entries must be <mainnet-beta|devnet|testnet>=<url>, got ${entry}`,
        )
      urls[cluster as SolanaCluster] = entry.slice(at + 1)
    }
    options.solanaRpcUrls = urls
  }
  return options
}
