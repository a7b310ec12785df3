// @vitest-environment node
import {
  attachEnclave,
  createLatchkeyClient,
  createMemoryStorage,
  LatchkeyError,
} from '@latchkey/core'
import { type SolanaLedger, startSolanaLedger } from '@latchkey/server/test/solana'
import * as kit from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { solanaFailure } from '../modal/transactions/solana/solana-failure.ts'
import { createLatchkeyInstance } from '../store.ts'
import { APP_ID, accessToken } from '../test/fake-server.ts'
import { runSolanaTransaction, solanaTransactionRequest } from './solana-transactions.ts'

// The Solana request's prepare / refresh / submit against a real ledger
// (LiteSVM behind JSON-RPC), the enclave a function signing with a key pair.

const SOL = 1_000_000_000n
let ledger: SolanaLedger
let rpc: ReturnType<typeof kit.createSolanaRpc>

beforeAll(async () => {
  ledger = await startSolanaLedger()
  rpc = kit.createSolanaRpc(ledger.rpcUrl)
})
afterAll(() => ledger.stop())

const balance = async (who: string) => (await rpc.getBalance(who as kit.Address).send()).value

/** A logged-in user whose embedded Solana wallet is `wallet`; the enclave signs with it. */
function setup(wallet: kit.KeyPairSigner, { needsRecovery = false } = {}) {
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://latchkey.test',
    storage: createMemoryStorage(),
    fetch: vi.fn(async () => new Response('{}', { status: 500 })) as typeof fetch,
    cookies: { get: () => null, set() {}, remove() {} },
  })
  const account = {
    type: 'wallet',
    address: wallet.address,
    chain_type: 'solana',
    wallet_index: 0,
    wallet_client_type: 'latchkey',
    connector_type: 'embedded',
    imported: false,
    delegated: false,
    recovery_method: 'user-passcode',
    entropy_id: 'entropy-1',
    verified_at: 1,
    first_verified_at: 1,
    latest_verified_at: 1,
  } as const
  client.session.applyAuthResponse({
    user: {
      ...{ id: 'did:latchkey:user1', created_at: 1, mfa_methods: [], has_accepted_terms: false },
      ...{ is_guest: false, linked_accounts: [account] },
    },
    ...{ is_new_user: false, refresh_token: 'r', identity_token: null },
    token: accessToken(Math.floor(Date.now() / 1000) + 3600),
    session_update_action: 'set',
  })
  let recovered = !needsRecovery
  const enclave = vi.fn(async (event: string, data: Record<string, unknown>) => {
    if (event === 'latchkey:wallets:connect')
      return {
        entropy_id: 'entropy-1',
        status: recovered ? 'ready' : 'needs-recovery',
        recovery_method: 'user-passcode',
      }
    const { request } = data as { request: { params: { transaction: string } } }
    const transaction = kit
      .getTransactionDecoder()
      .decode(Buffer.from(request.params.transaction, 'base64url'))
    const signed = await kit.partiallySignTransaction([wallet.keyPair], transaction)
    return { result: Buffer.from(kit.getTransactionEncoder().encode(signed)).toString('base64url') }
  })
  attachEnclave(client, {
    origin: 'http://latchkey.test',
    request: enclave as never,
    keyThumbprint: async () => null,
    destroy() {},
  })
  const cluster = { name: 'localnet', rpcUrl: ledger.rpcUrl }
  const instance = createLatchkeyInstance(client, { solanaClusters: [cluster] })
  const user = client.session.getState().user
  const embedded = user?.linkedAccounts.find((a) => a.type === 'wallet')
  const walletAccount = embedded as Parameters<typeof solanaTransactionRequest>[1]
  /** The request the confirm screen would get for `transaction`. */
  const requestFor = (transaction: Uint8Array, mode: 'send' | 'sign' = 'send') =>
    solanaTransactionRequest(instance, walletAccount, { cluster, transaction, mode, uiOptions: {} })
  return { instance, enclave, requestFor, recover: () => (recovered = true) }
}

/** An unsigned SOL transfer from `from`, on the ledger's latest blockhash. */
async function transfer(from: string, to: string, lamports: bigint): Promise<Uint8Array> {
  const { value: lifetime } = await rpc.getLatestBlockhash().send()
  const instruction = getTransferSolInstruction({
    source: kit.createNoopSigner(from as kit.Address),
    destination: to as kit.Address,
    amount: lamports,
  })
  const message = kit.pipe(
    kit.createTransactionMessage({ version: 0 }),
    (m) => kit.setTransactionMessageFeePayer(from as kit.Address, m),
    (m) => kit.setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => kit.appendTransactionMessageInstructions([instruction], m),
  )
  return new Uint8Array(kit.getTransactionEncoder().encode(kit.compileTransaction(message)))
}

async function funded(lamports = 2n * SOL) {
  const wallet = await kit.generateKeyPairSigner()
  ledger.airdrop(wallet.address, lamports)
  return wallet
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable(),
    (e) => e,
  )

describe('solanaTransactionRequest on a ledger', () => {
  it('prepares a transfer (fee, balance, instructions), then signs in the enclave, sends and confirms it', async () => {
    const payer = await funded()
    const to = (await kit.generateKeyPairSigner()).address
    const { requestFor, enclave } = setup(payer)
    const transaction = await transfer(payer.address, to, SOL / 2n)
    const request = requestFor(transaction)
    const prepared = await request.prepare(transaction)
    expect(prepared).toMatchObject({ fee: 5000n, balance: 2n * SOL, hasFunds: true })
    expect(prepared.instructions).toEqual([
      { type: 'sol-transfer', from: payer.address, to, lamports: SOL / 2n },
    ])
    const result = await request.submit(transaction)
    expect(result.fees).toBe(5000n)
    expect(typeof result.signature).toBe('string')
    expect(await balance(to)).toBe(SOL / 2n)
    expect(await balance(payer.address)).toBe(2n * SOL - SOL / 2n - 5000n)
    expect(enclave).toHaveBeenCalledWith(
      'latchkey:wallets:rpc',
      expect.objectContaining({ chain_type: 'solana', entropy_id: 'entropy-1' }),
      expect.anything(),
    )
    expect(request.explorerUrl(result.signature as string)).toBe(
      `https://explorer.solana.com/tx/${result.signature}?cluster=custom&customUrl=${encodeURIComponent(ledger.rpcUrl)}`,
    )
  })

  it('signs only in mode sign: nothing reaches the ledger', async () => {
    const payer = await funded()
    const { requestFor } = setup(payer)
    const transaction = await transfer(payer.address, payer.address, 1n)
    const request = requestFor(transaction, 'sign')
    const { signedTransaction, signature } = await request.submit(transaction)
    expect(signature).toBeUndefined()
    expect(signedTransaction.length).toBe(transaction.length)
    expect(signedTransaction.slice(1, 65).some((byte) => byte !== 0)).toBe(true)
    expect(await balance(payer.address)).toBe(2n * SOL)
  })

  it('refresh puts an expired transaction on a new blockhash, which then sends', async () => {
    const payer = await funded()
    const { requestFor } = setup(payer)
    const stale = await transfer(payer.address, payer.address, 1n)
    ledger.svm.expireBlockhash()
    const request = requestFor(stale)
    const fresh = await request.refresh(stale)
    expect(fresh).not.toEqual(stale)
    expect((await request.prepare(fresh)).fee).toBe(5000n)
    expect((await request.submit(fresh)).fees).toBe(5000n)
  })

  it('a transfer beyond the balance fails with the ledger’s log line, which the error screen shows', async () => {
    const payer = await funded(SOL / 100n)
    const { requestFor } = setup(payer)
    const transaction = await transfer(payer.address, payer.address, SOL)
    const request = requestFor(transaction)
    expect((await request.prepare(transaction)).hasFunds).toBe(false)
    const error = await rejection(request.submit(transaction))
    expect(error).toMatchObject({ code: 'TRANSACTION_FAILURE' })
    expect(solanaFailure(error).title).toMatch(/^Transfer: insufficient lamports \d+, need \d+$/)
  })
})

describe('requestSolanaTransaction without wallet UIs', () => {
  const options = { uiOptions: { showWalletUIs: false } }

  it("refuses a send the wallet cannot pay: 'Solana wallet has insufficient funds for this transaction.'", async () => {
    const payer = await funded(SOL / 100n)
    const { instance, enclave } = setup(payer)
    const transaction = await transfer(payer.address, payer.address, SOL)
    const error = await rejection(
      runSolanaTransaction(instance, { transaction, ...options }, 'send'),
    )
    expect(error).toBeInstanceOf(LatchkeyError)
    expect(error).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message: 'Solana wallet has insufficient funds for this transaction.',
    })
    expect(enclave).not.toHaveBeenCalled()
  })

  it('sends on the first cluster at once, opening no screen', async () => {
    const payer = await funded()
    const { instance } = setup(payer)
    const open = vi.spyOn(instance, 'openWalletScreen')
    const transaction = await transfer(payer.address, payer.address, 1n)
    const result = await runSolanaTransaction(instance, { transaction, ...options }, 'send')
    expect(result.fees).toBe(5000n)
    expect(open).not.toHaveBeenCalled()
  })

  it('recovers the wallet through the connect-wallet screen first when it needs it, then signs', async () => {
    const payer = await funded()
    const { instance, recover } = setup(payer, { needsRecovery: true })
    const open = vi.spyOn(instance, 'openWalletScreen').mockImplementation(async () => recover())
    const transaction = await transfer(payer.address, payer.address, 1n)
    const result = await runSolanaTransaction(instance, { transaction, ...options }, 'sign')
    expect(open).toHaveBeenCalledWith(
      expect.objectContaining({ screen: 'connect-embedded-wallet' }),
    )
    expect(result.signedTransaction.length).toBe(transaction.length)
  })

  it('refuses a cluster the app did not configure, before anything else', async () => {
    const payer = await funded()
    const { instance } = setup(payer)
    const transaction = await transfer(payer.address, payer.address, 1n)
    const run = runSolanaTransaction(
      instance,
      { transaction, cluster: 'devnet', ...options },
      'send',
    )
    expect(await rejection(run)).toMatchObject({ code: 'UNSUPPORTED_CHAIN' })
  })
})
