import { routes } from '@latchkey/protocol'
import type { TestInstance } from '../test/instance.ts'
import { hdBody, solAddress } from '../test/wallets.ts'
import { SIWE_ACCOUNT_TYPE, SIWS_ACCOUNT_TYPE } from '../users/accounts-wire.ts'
import { insertAccount } from '../users/service.ts'
import type { FundingSettings } from './settings.ts'

/*
 * Helpers of the funding tests (funding/*.test.ts): an app with every
 * funding option on, and a signed-in user with embedded and linked wallets.
 */

/** MoonPay's documented example keys (dev.moonpay.com "URL signing"). */
export const MOONPAY_PUBLISHABLE_KEY = 'pk_test_key'
export const MOONPAY_SECRET_KEY = 'sk_test_key'

/** Funding settings offering every option (MoonPay in sandbox). */
export const allFundingOptions: FundingSettings = {
  options: [
    { method: 'card', provider: 'moonpay' },
    { method: 'card', provider: 'coinbase' },
    { method: 'exchange', provider: 'coinbase' },
    { method: 'wallets', provider: null },
    { method: 'manual', provider: null },
  ],
  default_recommended_amount: '0.05',
  moonpay: { publishable_key: MOONPAY_PUBLISHABLE_KEY, sandbox: true },
}

/** A signed-in user with an embedded Ethereum and Solana wallet. */
export interface FundingUser {
  token: string
  userId: string
  ethereum: string
  solana: string
}

/** Logs `email` in (session bound to the instance's enclave key) and creates an HD wallet pair. */
export async function userWithWallets(t: TestInstance, email: string): Promise<FundingUser> {
  const login = await t.login(email, { enclaveKey: t.enclaveKey })
  const token = login.token ?? ''
  const body = hdBody({ solana: true })
  const res = await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body })
  if (res.status !== 200) throw new Error(`wallet creation failed: ${JSON.stringify(res.body)}`)
  const solana = body.wallets.find((w) => w.chain_type === 'solana')?.address ?? ''
  return { token, userId: login.user.id, ethereum: body.entropy_id, solana }
}

/**
 * Links an external wallet to the user as SIWE / SIWS sign-in does (the
 * linked-account row; the signature ceremony has its own tests).
 */
export async function linkExternalWallet(
  t: TestInstance,
  userId: string,
  chain: 'ethereum' | 'solana',
  address = chain === 'ethereum' ? `0x${'ab'.repeat(20)}` : solAddress(),
): Promise<string> {
  await insertAccount(
    t.db,
    t.app.id,
    userId,
    {
      type: chain === 'ethereum' ? SIWE_ACCOUNT_TYPE : SIWS_ACCOUNT_TYPE,
      identifier: chain === 'ethereum' ? address.toLowerCase() : address,
      data: { address, connector_type: 'injected', wallet_client_type: 'metamask' },
    },
    t.clock.now(),
  )
  return address
}
