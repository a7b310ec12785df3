import { type DelegateWalletRequest, routes, type WalletRpcRequest } from '@latchkey/protocol'
import {
  deriveEthereumAccount,
  deriveSolanaAccount,
  generateHdSecret,
  splitSecret,
  type WalletSecret,
} from '@latchkey/protocol/keys'
import { appRequest } from '../apps/app-secrets.test-helper.ts'
import type { TestInstance, TestResponse } from '../test/instance.ts'
import { recovery } from '../test/wallets.ts'
import { sealShareTo } from './key.ts'
import { type DelegationPolicy, setDelegationPolicy } from './policy.ts'

// Test helpers of delegated actions: a wallet with REAL shares (the enclave's
// own key code, @latchkey/protocol/keys), stored through the real create
// route, and its device share sealed to the server's delegation key exactly
// as the enclave seals it.

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')

export interface RealWallet {
  secret: WalletSecret
  deviceShare: Uint8Array
  authShare: Uint8Array
  /** Index-0 Ethereum address (EIP-55), the entropy id. */
  ethereum: `0x${string}`
  ethereumPrivateKey: Uint8Array
  /** Index-0 Solana address. */
  solana: string
  solanaPublicKey: Uint8Array
}

/** A signed-in user (enclave-bound) with one HD secret: Ethereum and Solana wallets at index 0. */
export async function userWithRealWallet(
  t: TestInstance,
  email: string,
): Promise<{ token: string; userId: string; wallet: RealWallet }> {
  const auth = await t.login(email, { enclaveKey: t.enclaveKey })
  const token = auth.token ?? ''
  return { token, userId: auth.user.id, wallet: await createRealWallet(t, token) }
}

/** Stores a new HD secret with real shares for the token's user, through the create route. */
export async function createRealWallet(
  t: TestInstance,
  token: string,
  enclaveKey = t.enclaveKey,
): Promise<RealWallet> {
  const secret = generateHdSecret()
  const { deviceShare, authShare } = await splitSecret(secret)
  const eth = deriveEthereumAccount(secret, 0)
  const sol = deriveSolanaAccount(secret, 0)
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token,
    enclaveKey,
    body: {
      entropy_id: eth.address,
      entropy_type: 'hd',
      auth_share: b64url(authShare),
      recovery: recovery('latchkey'),
      wallets: [
        { chain_type: 'ethereum', address: eth.address, wallet_index: 0 },
        { chain_type: 'solana', address: sol.address, wallet_index: 0 },
      ],
    },
  })
  if (created.status !== 200) throw new Error(`create failed: ${JSON.stringify(created.body)}`)
  return {
    secret,
    deviceShare,
    authShare,
    ethereum: eth.address,
    ethereumPrivateKey: eth.privateKey,
    solana: sol.address,
    solanaPublicKey: sol.publicKey,
  }
}

/** The delegate request the enclave sends: `share` sealed to the server's current key. */
export async function delegateBody(
  t: TestInstance,
  userId: string,
  address: string,
  chainType: 'ethereum' | 'solana',
  share: Uint8Array,
  options: { appId?: string } = {},
): Promise<DelegateWalletRequest> {
  const key = await t.request(routes.embeddedWalletsDelegationKey)
  if (key.status !== 200) throw new Error(`delegation key: ${JSON.stringify(key.body)}`)
  const sealed = sealShareTo(key.body.public_key, share, {
    appId: options.appId ?? t.app.id,
    userId,
    address,
  })
  return {
    address,
    chain_type: chainType,
    key_id: key.body.key_id,
    ephemeral_public_key: b64url(sealed.ephemeralPublicKey),
    iv: b64url(sealed.iv),
    ciphertext: b64url(sealed.ciphertext),
  }
}

/** Delegates one wallet through the real enclave route. */
export async function delegate(
  t: TestInstance,
  user: { token: string; userId: string; wallet: RealWallet },
  chainType: 'ethereum' | 'solana' = 'ethereum',
): Promise<TestResponse> {
  const address = chainType === 'ethereum' ? user.wallet.ethereum : user.wallet.solana
  const body = await delegateBody(t, user.userId, address, chainType, user.wallet.deviceShare)
  return t.enclaveRequest(routes.embeddedWalletsDelegate, { token: user.token, body })
}

/** The server API's id of the user's wallet at `address` (`GET /users/:id/wallets`). */
export async function walletIdOf(
  t: TestInstance,
  userId: string,
  address: string,
): Promise<string> {
  const res = await appRequest(t, routes.appUserWallets(userId))
  const wallet = (res.body?.data ?? []).find(
    (w: { address: string; id: string }) => w.address.toLowerCase() === address.toLowerCase(),
  )
  if (!wallet) throw new Error(`no wallet ${address}: ${JSON.stringify(res.body)}`)
  return wallet.id
}

/** `POST /wallets/:id/rpc` as the app's backend calls it. */
export const rpc = (
  t: TestInstance,
  walletId: string,
  body: WalletRpcRequest,
  options: { secret?: string; appId?: string } = {},
): Promise<TestResponse> => appRequest(t, routes.walletRpc(walletId), { body, ...options })

/** No limit at all (an explicit policy: without one, everything is refused). */
export const OPEN_POLICY: DelegationPolicy = {
  chains: null,
  contracts: null,
  methods: null,
  maxValuePerTx: null,
  maxValuePerDay: null,
}

export const setPolicy = (
  t: TestInstance,
  policy: Partial<DelegationPolicy> = {},
  appId?: string,
) => setDelegationPolicy(t.db, appId ?? t.app.id, { ...OPEN_POLICY, ...policy }, t.clock.now())
