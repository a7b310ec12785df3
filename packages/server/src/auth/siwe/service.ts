import type {
  AuthMode,
  AuthResponse,
  ConnectorType,
  SiweInitRequest,
  SiweInitResponse,
  UserWire,
} from '@latchkey/protocol'
import { getAddress, type Hex } from 'viem'
import { type AppRecord, toAppConfig } from '../../apps/service.ts'
import type { Services } from '../../http/context.ts'
import { type AccountInput, SIWE_ACCOUNT_TYPE } from '../../users/service.ts'
import {
  appOrigin,
  assertNotEmbeddedWallet,
  assertWalletLoginAllowed,
  linkExternalWallet,
  loginWithExternalWallet,
  unlinkExternalWallet,
} from './external-wallet.ts'
import {
  consumeNonce,
  findUsableNonce,
  limitSignInInit,
  newIssuedNonce,
  storeSignInNonce,
} from './nonces.ts'
import { DEFAULT_SIWE_CHAIN_IDS } from './schema.ts'
import { checkSiweMessage, verifySiweSignature } from './verify.ts'

/*
 * Sign-In With Ethereum, server side (docs/login-wallets.md, spec 01 §7):
 * init issues a nonce for an address; authenticate / link check the signed
 * EIP-4361 message (verify.ts), spend the nonce and log in or link the
 * `siwe` account (identifier = lowercase address).
 */

/** A signed EIP-4361 message as authenticate and link receive it. */
export interface SiweProof {
  message: string
  signature: string
  chain_id?: string | undefined
  wallet_client_type: string
  connector_type: ConnectorType
}

/** The EVM chains the app's SIWE messages may name (`chains` setting, else the defaults). */
export const siweChainsOf = (app: AppRecord): readonly number[] =>
  app.settings.chains ?? DEFAULT_SIWE_CHAIN_IDS

/**
 * Issues a single-use nonce for `address` (security bar 17); rate-limited
 * per IP.
 *
 * @example
 * const { nonce } = await initSiwe(services, app, { address: '0xAb…' }, ip)
 */
export async function initSiwe(
  services: Services,
  app: AppRecord,
  input: SiweInitRequest,
  ip: string | undefined,
): Promise<SiweInitResponse> {
  // A smart wallet's link signs a SIWE message too (smart-wallets/link.ts), in
  // apps without wallet login; the nonce logs no one in: authenticate and
  // link still ask for wallet login.
  if (!toAppConfig(app).smart_wallet_config) assertWalletLoginAllowed(app)
  await limitSignInInit(services, app.id, ip)
  const address = getAddress(input.address)
  const issued = newIssuedNonce(services)
  await storeSignInNonce(services, app.id, 'ethereum', address.toLowerCase(), issued)
  return { nonce: issued.nonce, address, expires_at: issued.expiresAt }
}

/** Checks message, nonce and signature, then spends the nonce: the proven account. */
async function verifiedAccount(
  services: Services,
  app: AppRecord,
  origin: string | undefined,
  proof: SiweProof,
): Promise<AccountInput> {
  assertWalletLoginAllowed(app)
  const now = services.now()
  const checked = checkSiweMessage(proof.message, {
    origin: appOrigin(app, origin),
    chainIds: siweChainsOf(app),
    requestChainId: proof.chain_id,
    now,
  })
  const identifier = checked.address.toLowerCase()
  // The nonce before the signature: no RPC call without a live nonce.
  await findUsableNonce(services.db, app.id, 'ethereum', checked.nonce, identifier, now)
  await verifySiweSignature({
    message: proof.message,
    address: checked.address,
    signature: proof.signature as Hex,
    chainId: checked.chainId,
    rpcUrl: services.config.chainRpcUrls[checked.chainId],
  })
  await assertNotEmbeddedWallet(services.db, app.id, identifier)
  await consumeNonce(services.db, checked.nonce, services.now())
  return {
    type: SIWE_ACCOUNT_TYPE,
    identifier,
    data: {
      address: checked.address,
      chain_id: `eip155:${checked.chainId}`,
      wallet_client_type: proof.wallet_client_type,
      connector_type: proof.connector_type,
    },
  }
}

/** Logs in (or signs up) with a signed EIP-4361 message (spec 01 §4 "Wallet"). */
export async function authenticateWithSiwe(
  services: Services,
  app: AppRecord,
  origin: string | undefined,
  input: SiweProof & { mode: AuthMode },
): Promise<AuthResponse> {
  const account = await verifiedAccount(services, app, origin, input)
  return loginWithExternalWallet(services, app, account, input.mode)
}

/** Links the signing Ethereum wallet to the signed-in user (one per user). */
export async function linkSiwe(
  services: Services,
  app: AppRecord,
  userId: string,
  origin: string | undefined,
  proof: SiweProof,
): Promise<UserWire> {
  const account = await verifiedAccount(services, app, origin, proof)
  return linkExternalWallet(services, app, userId, account)
}

/** Removes an Ethereum wallet from the signed-in user, who must keep one login method. */
export async function unlinkSiwe(
  services: Services,
  app: AppRecord,
  userId: string,
  address: string,
): Promise<UserWire> {
  assertWalletLoginAllowed(app)
  return unlinkExternalWallet(services, app, userId, SIWE_ACCOUNT_TYPE, address.toLowerCase())
}
