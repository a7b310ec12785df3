import { METAMASK_WALLETCONNECT_SIGN_DELAY_MS } from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import type {
  AuthMode,
  SiweInitResponse,
  SiwsInitResponse,
  UserWire,
} from '@latchkey/protocol/schemas'
import { base64 } from '@scure/base'
import { createSignInMessageText } from '@solana/wallet-standard-util'
import { getAddress, type Hex, stringToHex } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { loginRequest } from '../flows/login-request.ts'
import { setRecentLoginMethod } from '../recent-login.ts'
import { toUser, type User } from '../user.ts'
import { switchEthereumChain } from './chains.ts'
import { withWalletTimeout } from './errors.ts'
import { buildMemoTransaction } from './memo-transaction.ts'
import type {
  ConnectedEthereumExternalWallet,
  ConnectedSolanaExternalWallet,
  EvmChain,
} from './types.ts'

/** Steps a wallet sign-in reports (spec 01 §2 "Wallet connecting"). */
export type WalletSignInStatus = 'switching-chain' | 'awaiting-signature' | 'verifying'

export interface WalletSignInOptions {
  /** `login` signs in (or up); `link` adds the wallet to the logged-in user. */
  intent?: 'login' | 'link'
  mode?: AuthMode
  captchaToken?: string
  onStatus?(status: WalletSignInStatus): void
  /** The page the message names (default `window.location`). */
  location?: { host: string; origin: string }
}

export interface WalletSignInResult {
  user: User
  /** False for a link. */
  isNewUser: boolean
}

const here = (options: WalletSignInOptions) => options.location ?? window.location

async function submit(
  client: LatchkeyClient,
  route: { authenticate: string; link: string },
  body: Record<string, unknown>,
  options: WalletSignInOptions,
): Promise<WalletSignInResult> {
  options.onStatus?.('verifying')
  if (options.intent === 'link') {
    const user = toUser(await client.authedRequest<UserWire>(route.link, body))
    client.session.setUser(user)
    return { user, isNewUser: false }
  }
  const response = await loginRequest(client, route.authenticate, {
    ...body,
    mode: options.mode ?? 'login-or-sign-up',
  })
  const user = client.session.applyAuthResponse(response)
  setRecentLoginMethod(client.storage, client.appId, 'wallet')
  return { user, isNewUser: response.is_new_user }
}

/**
 * Sign-In With Ethereum (EIP-4361): switches the wallet to a supported chain
 * if needed, asks the server for a nonce, has the wallet sign the message
 * and logs in (or links).
 *
 * @example
 * const wallet = await externalWallets.connect(key, 'ethereum')
 * await signInWithEthereum(client, wallet, { chains: [mainnet], defaultChain: mainnet })
 */
export async function signInWithEthereum(
  client: LatchkeyClient,
  wallet: ConnectedEthereumExternalWallet,
  options: WalletSignInOptions & {
    chains: readonly EvmChain[]
    defaultChain: EvmChain
    statement?: string
  },
): Promise<WalletSignInResult> {
  const provider = wallet.getEthereumProvider()
  let chainId = Number(wallet.chainId.split(':')[1])
  if (!options.chains.some((c) => c.id === chainId)) {
    options.onStatus?.('switching-chain')
    await switchEthereumChain(provider, options.defaultChain, wallet.rpcTimeoutMs)
    chainId = options.defaultChain.id
  }
  const address = getAddress(wallet.address)
  const { nonce } = await client.http.request<SiweInitResponse>(routes.siweInit, {
    // docs/captcha.md: a fresh single-use token from the installed captcha, if any.
    body: { address, ...(await captchaBody(client, options.captchaToken)) },
    auth: false,
  })
  const { host, origin } = here(options)
  const message = createSiweMessage({
    domain: host,
    address,
    uri: origin,
    version: '1',
    chainId,
    nonce,
    issuedAt: new Date(),
    ...(options.statement ? { statement: options.statement } : {}),
  })
  options.onStatus?.('awaiting-signature')
  // Spec 01 §9: MetaMask's app drops a request sent over WalletConnect right after it connected.
  if (wallet.connectorType === 'wallet_connect_v2' && wallet.walletClientType === 'metamask')
    await new Promise((resolve) => setTimeout(resolve, METAMASK_WALLETCONNECT_SIGN_DELAY_MS))
  const signature = (await withWalletTimeout(
    provider.request({ method: 'personal_sign', params: [stringToHex(message), address] }),
    wallet.rpcTimeoutMs,
  )) as Hex
  return submit(
    client,
    { authenticate: routes.siweAuthenticate, link: routes.siweLink },
    {
      message,
      signature,
      chain_id: `eip155:${chainId}`,
      wallet_client_type: wallet.walletClientType,
      connector_type: wallet.connectorType,
      ...(options.captchaToken ? { token: options.captchaToken } : {}),
    },
    options,
  )
}

/**
 * Sign-In With Solana: the server builds the sign-in input; wallets with
 * `solana:signIn` sign it themselves, others sign the same message text
 * with `signMessage`. `messageType: 'transaction'` (Phantom with a Ledger)
 * signs a memo transaction carrying the message instead.
 */
export async function signInWithSolana(
  client: LatchkeyClient,
  wallet: ConnectedSolanaExternalWallet,
  options: WalletSignInOptions & { messageType?: 'plain' | 'transaction' } = {},
): Promise<WalletSignInResult> {
  // Checked before init: no nonce is spent on a wallet that cannot sign transactions.
  if (options.messageType === 'transaction' && !wallet.signTransaction)
    throw new LatchkeyError('UNSUPPORTED_METHOD')
  const init = await client.http.request<SiwsInitResponse>(routes.siwsInit, {
    body: {
      address: wallet.address,
      ...(await captchaBody(client, options.captchaToken)),
    },
    auth: false,
  })
  const input = init.sign_in_input
  const standardInput = {
    domain: input.domain,
    address: input.address,
    ...(input.statement !== undefined ? { statement: input.statement } : {}),
    uri: input.uri,
    version: input.version,
    chainId: input.chain_id,
    nonce: input.nonce,
    issuedAt: input.issued_at,
    ...(input.expiration_time !== undefined ? { expirationTime: input.expiration_time } : {}),
  }
  const text = createSignInMessageText(standardInput)
  options.onStatus?.('awaiting-signature')
  let message: string
  let signature: Uint8Array
  if (options.messageType === 'transaction') {
    if (!wallet.signTransaction) throw new LatchkeyError('UNSUPPORTED_METHOD')
    const signed = await wallet.signTransaction(buildMemoTransaction(wallet.address, text))
    // A signed wire transaction: signature count (1), the signature, then the message.
    signature = signed.slice(1, 65)
    message = base64.encode(signed)
  } else if (wallet.signIn) {
    const output = await wallet.signIn(standardInput)
    message = new TextDecoder().decode(output.signedMessage)
    signature = output.signature
  } else {
    message = text
    signature = await wallet.signMessage(new TextEncoder().encode(text))
  }
  return submit(
    client,
    { authenticate: routes.siwsAuthenticate, link: routes.siwsLink },
    {
      message,
      signature: base64.encode(signature),
      message_type: options.messageType ?? 'plain',
      wallet_client_type: wallet.walletClientType,
      connector_type: wallet.connectorType,
      ...(options.captchaToken ? { token: options.captchaToken } : {}),
    },
    options,
  )
}

/** The init call's captcha field: the given token, else a fresh one from the installed captcha. */
async function captchaBody(
  client: LatchkeyClient,
  given: string | undefined,
): Promise<{ token?: string }> {
  const token = given ?? (await client.captchaToken())
  return token ? { token } : {}
}
