// Funding (spec 03 "Funding"; docs/funding.md): the chooser's options, the
// Receive QR payload, the server calls of the card on-ramps, and the
// pollers that follow a purchase, a balance or a bridge.
export { isFundingAmountValid, sanitizeFundingAmount } from './amount.ts'
export { type CoinbaseStatusReturnType, coinbaseStatus } from './coinbaseStatus.ts'
export {
  type BridgeClient,
  type BridgeEvmTransaction,
  type BridgeQuote,
  type BridgeQuoteInput,
  type BridgeRequestStatus,
  type BridgeSolanaInstruction,
  type BridgeSolanaTransaction,
  type BridgeStatus,
  type CreateBridgeClientParameters,
  createBridgeClient,
  RELAY_EVM_NATIVE_CURRENCY,
  RELAY_SOLANA_CHAIN_ID,
  RELAY_SOLANA_DEVNET_CHAIN_ID,
  RELAY_SOLANA_NATIVE_CURRENCY,
} from './createBridgeClient.ts'
export {
  type CreateCoinbaseSessionParameters,
  type CreateCoinbaseSessionReturnType,
  createCoinbaseSession,
} from './createCoinbaseSession.ts'
export { type FormatNetworkNameInput, formatNetworkName } from './formatNetworkName.ts'
export {
  isMoonpayTestnet,
  type MoonpayCurrencyCodeInput,
  moonpayCurrencyCode,
} from './moonpayCurrencyCode.ts'
export { type PaymentUriInput, paymentUri } from './paymentUri.ts'
export {
  COINBASE_ONRAMP_CHAIN_IDS,
  type ResolveFundingOptionsInput,
  resolveFundingOptions,
} from './resolveFundingOptions.ts'
export {
  type SignMoonpayUrlParameters,
  type SignMoonpayUrlReturnType,
  signMoonpayUrl,
} from './signMoonpayUrl.ts'
export {
  type SplTokenInfoParameters,
  type SplTokenInfoReturnType,
  splTokenInfo,
} from './splTokenInfo.ts'
export { toSolanaInstructions } from './toSolanaInstructions.ts'
export {
  type FundingAsset,
  type SolanaCluster,
  USDC_DECIMALS,
  USDC_SOLANA_MINT,
  usdcAddress,
} from './usdc.ts'
export {
  BALANCE_POLL_INTERVAL_MS,
  type BalanceReading,
  type WatchBalanceParameters,
  watchBalance,
} from './watchBalance.ts'
export {
  BRIDGE_POLL_INTERVAL_MS,
  BRIDGE_STATUS_TIMEOUT_MS,
  type WatchBridgeStatusParameters,
  watchBridgeStatus,
} from './watchBridgeStatus.ts'
export {
  COINBASE_MAX_POLL_FAILURES,
  COINBASE_MAX_POPUP_CLOSES,
  COINBASE_POLL_INTERVAL_MS,
  type CoinbaseOnrampStatus,
  type WatchCoinbaseStatusParameters,
  watchCoinbaseStatus,
} from './watchCoinbaseStatus.ts'
export {
  CARD_STATUS_START_DELAY_MS,
  MOONPAY_MAX_POLL_FAILURES,
  MOONPAY_POLL_INTERVAL_MS,
  type MoonpayStatus,
  type MoonpayStatusUpdate,
  type WatchMoonpayStatusParameters,
  watchMoonpayStatus,
} from './watchMoonpayStatus.ts'
