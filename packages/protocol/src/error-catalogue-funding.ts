import type { ErrorCode } from './error-codes.ts'
import type { UserMessage } from './user-message.ts'

/**
 * Spec 03 §8 "Funding": the funding codes' wording (docs/funding.md). The
 * spec's 'PrivyProvider' is our LatchkeyProvider. Where the spec names a
 * failure without its words (bridge timed out, insufficient balance,
 * transaction failure), the wording is ours.
 */
export const fundingErrorMessages = {
  FUNDING_NOT_ENABLED: { title: 'Wallet funding is not enabled' },
  FUNDING_METHOD_NOT_ENABLED: { title: 'Funding wallet is not enabled' },
  FUNDING_CHAIN_NOT_CONFIGURED: {
    title: 'Funding chain {id} is not in LatchkeyProvider chains list',
  },
  FUNDING_USDC_SOLANA_TESTNET: { title: 'USDC funding is not supported on the Solana testnet' },
  FUNDING_INVALID_DATA: { title: 'Invalid funding data' },
  FUNDING_CONFIG_NOT_FOUND: { title: "Couldn't find funding config" },
  FUNDING_PROVIDER_FAILED: {
    title:
      'Something went wrong adding funds from Moonpay. Please try again or use another method to fund your wallet.',
    retryable: true,
  },
  FUNDING_FLOW_INIT_FAILED: { title: 'Unable to initialize flow', retryable: true },
  FUNDING_FAILED: {
    title: 'Something went wrong adding funds. Please try again or use another method.',
    retryable: true,
  },
  FUNDING_UNSUPPORTED_CHAIN: { title: 'Unsupported chainId' },
  FUNDING_WALLET_INSUFFICIENT_FUNDS: { title: 'Wallet {address} does not have enough funds.' },
  FUNDING_USER_REJECTED: { title: 'Transaction was rejected by the user', retryable: true },
  // The spec's other wording of the user's no: for the request before the transaction.
  FUNDING_REQUEST_REJECTED: { title: 'User rejected the request.', retryable: true },
  BRIDGE_QUOTE_FAILED: { title: 'Unable to fetch quotes for bridging', retryable: true },
  BRIDGE_OPTION_FAILED: { title: 'Unable to select bridge option from quotes', retryable: true },
  TOKEN_DETAILS_FAILED: { title: 'Unable to fetch token details', retryable: true },
  BRIDGE_FAILED: {
    title:
      'We were unable to complete the bridging transaction. Funds will be refunded on your wallet.',
  },
  BRIDGE_TIMED_OUT: {
    title: 'The bridging transaction is taking longer than expected.',
    detail: 'Your funds are safe: check the bridge status, they arrive or are refunded.',
  },
  BRIDGE_INSUFFICIENT_BALANCE: {
    title: 'Your wallet does not have enough funds to bridge this amount.',
  },
  BRIDGE_TRANSACTION_FAILED: {
    title: 'The bridging transaction failed.',
    detail: 'No funds were moved. Please try again.',
    retryable: true,
  },
  ONRAMP_NOT_CONFIGURED: { title: 'This app has not set up that funding provider' },
  ONRAMP_PROVIDER_ERROR: {
    title: 'The funding provider could not be reached. Please try again.',
    retryable: true,
  },
} satisfies Partial<Record<ErrorCode, UserMessage>>
