import type {
  CoinbaseSessionResponse,
  CoinbaseStatusResponse,
  coinbaseSessionRequestSchema,
  FundingOption,
  MoonpaySignResponse,
  moonpaySignRequestSchema,
} from '@latchkey/protocol'
import type { z } from 'zod'
import { getAppProviderCredentials } from '../apps/credentials.ts'
import type { AppRecord } from '../apps/service.ts'
import { ApiError } from '../errors.ts'
import type { AuthContext, Services } from '../http/context.ts'
import { CoinbaseOnramp, coinbaseNetworkOf } from './coinbase.ts'
import type { CdpApiKey } from './coinbase-jwt.ts'
import { moonpayWidgetUrl, newExternalTransactionId } from './moonpay.ts'
import { assertOwnWallet } from './own-wallet.ts'
import { isPartnerUserRefOf, newPartnerUserRef } from './partner-ref.ts'
import type { FundingSettings } from './settings.ts'
import { SplTokenInfo } from './spl-token-info.ts'

/** The funding adapters of one server, made on first use. */
interface FundingServices {
  coinbase: CoinbaseOnramp
  splTokens: SplTokenInfo
}

const byServer = new WeakMap<Services, FundingServices>()

/** This server's Coinbase Onramp client and SPL token lookup (one cache per server). */
export function fundingServicesOf(services: Services): FundingServices {
  let found = byServer.get(services)
  if (!found) {
    const { funding } = services.config
    found = {
      coinbase: new CoinbaseOnramp({
        apiUrl: funding.coinbase.apiUrl,
        timeoutMs: funding.coinbase.timeoutMs,
        now: services.now,
        logger: services.logger,
      }),
      splTokens: new SplTokenInfo({
        rpcUrls: funding.solanaRpcUrls,
        timeoutMs: funding.solanaRpcTimeoutMs,
        now: services.now,
        logger: services.logger,
      }),
    }
    byServer.set(services, found)
  }
  return found
}

/**
 * The app's funding settings when `option` is on: FUNDING_NOT_ENABLED when
 * funding is off, FUNDING_METHOD_NOT_ENABLED when that option is not offered.
 */
function enabledFunding(app: AppRecord, option: FundingOption): FundingSettings {
  const funding = app.settings.funding
  if (!funding || funding.enabled === false || (funding.options ?? []).length === 0)
    throw new ApiError('FUNDING_NOT_ENABLED')
  const offered = (funding.options ?? []).some(
    (o) => o.method === option.method && o.provider === option.provider,
  )
  if (!offered) throw new ApiError('FUNDING_METHOD_NOT_ENABLED')
  return funding
}

/** MoonPay's Solana currencies are `sol` and `<token>_sol`; every other code is an EVM one. */
const isSolanaCurrency = (code: string) => code === 'sol' || code.endsWith('_sol')

/**
 * Signs a MoonPay buy-widget URL for one of the caller's wallets with the
 * app's secret key (funding/moonpay.ts). The sandbox flag must be the app's
 * (its secret key is a test or a live one); the currency must be of the
 * wallet's chain.
 */
export async function moonpaySign(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  body: z.output<typeof moonpaySignRequestSchema>,
): Promise<MoonpaySignResponse> {
  const funding = enabledFunding(app, { method: 'card', provider: 'moonpay' })
  const credentials = await getAppProviderCredentials(services, app.id, 'moonpay')
  if (!credentials || !funding.moonpay) throw new ApiError('ONRAMP_NOT_CONFIGURED')
  const sandbox = funding.moonpay.sandbox ?? false
  if (body.use_sandbox !== sandbox)
    throw new ApiError(
      'FUNDING_INVALID_DATA',
      `This app's MoonPay key is a ${sandbox ? 'sandbox' : 'live'} key: use_sandbox must be ${sandbox}`,
    )
  const chain = await assertOwnWallet(services.db, auth, body.address)
  if ((chain === 'solana') !== isSolanaCurrency(body.currency_code))
    throw new ApiError(
      'FUNDING_INVALID_DATA',
      `The currency ${body.currency_code} cannot be sent to a ${chain} wallet`,
    )
  const { moonpay } = services.config.funding
  const externalTransactionId = newExternalTransactionId()
  const signedUrl = moonpayWidgetUrl(
    sandbox ? moonpay.sandboxWidgetUrl : moonpay.widgetUrl,
    {
      apiKey: funding.moonpay.publishable_key,
      currencyCode: body.currency_code,
      walletAddress: body.address,
      externalTransactionId,
      quoteCurrencyAmount: body.quote_currency_amount,
      colorCode: body.ui_config?.accent_color ?? app.settings.accent_color ?? undefined,
      theme: body.ui_config?.theme,
      paymentMethod: body.payment_method,
    },
    credentials.secret_key,
  )
  return { signed_url: signedUrl, external_transaction_id: externalTransactionId }
}

/** The app's CDP key; ONRAMP_NOT_CONFIGURED without one. */
async function cdpKeyOf(services: Services, appId: string): Promise<CdpApiKey> {
  const credentials = await getAppProviderCredentials(services, appId, 'coinbase-onramp')
  if (!credentials) throw new ApiError('ONRAMP_NOT_CONFIGURED')
  return { name: credentials.api_key_name, secret: credentials.api_key_secret }
}

/**
 * Mints a Coinbase Onramp session token for one of the caller's wallets and
 * answers the pay URL (docs.cdp.coinbase.com "Generating an Onramp URL")
 * with a fresh partner user ref bound to the caller (funding/partner-ref.ts).
 * `buy` is the card option, `send` the exchange option.
 */
export async function coinbaseSession(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  body: z.output<typeof coinbaseSessionRequestSchema>,
  ip: string | undefined,
): Promise<CoinbaseSessionResponse> {
  enabledFunding(app, {
    method: body.experience === 'buy' ? 'card' : 'exchange',
    provider: 'coinbase',
  })
  const network = coinbaseNetworkOf(body.chain)
  const key = await cdpKeyOf(services, app.id)
  const chain = await assertOwnWallet(services.db, auth, body.address)
  if ((chain === 'solana') !== (body.chain === 'solana'))
    throw new ApiError(
      'FUNDING_INVALID_DATA',
      `A ${chain} wallet cannot receive funds on ${network}`,
    )
  const { coinbase } = fundingServicesOf(services)
  const sessionToken = await coinbase.sessionToken(key, {
    address: body.address,
    network,
    asset: body.asset,
    clientIp: ip,
  })
  const partnerUserRef = newPartnerUserRef(services.secrets, app.id, auth.userId)
  const query = new URLSearchParams({
    sessionToken,
    partnerUserRef,
    defaultNetwork: network,
    defaultAsset: body.asset,
    ...(body.amount ? { presetCryptoAmount: body.amount } : {}),
    defaultExperience: body.experience,
  })
  return {
    url: `${services.config.funding.coinbase.payUrl}/buy/select-asset?${query}`,
    partner_user_id: partnerUserRef,
  }
}

/**
 * The outcome of the newest purchase of a session this user started:
 * a partner user id made for someone else (or made up) is refused.
 */
export async function coinbaseStatus(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  partnerUserId: string,
): Promise<CoinbaseStatusResponse> {
  if (!isPartnerUserRefOf(services.secrets, partnerUserId, app.id, auth.userId))
    throw new ApiError('FUNDING_INVALID_DATA', 'That partner_user_id is not one of your sessions')
  const key = await cdpKeyOf(services, app.id)
  const status = await fundingServicesOf(services).coinbase.latestStatus(key, partnerUserId)
  return { status }
}
