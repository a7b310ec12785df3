// @vitest-environment node
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SolanaLedger, startSolanaLedger, stringifyRpc } from './solana-ledger.ts'

// Transactions are assembled byte by byte here (the server does not depend on
// @solana/kit); core's tests drive the ledger through kit.
let ledger: SolanaLedger

beforeAll(async () => {
  ledger = await startSolanaLedger()
})
afterAll(() => ledger.stop())

async function call(method: string, params: unknown[] = []) {
  const response = await fetch(ledger.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  })
  // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers are read field by field
  return (await response.json()) as { result?: any; error?: any; id: number }
}

function keypair() {
  const secretKey = ed25519.utils.randomSecretKey()
  const publicKey = ed25519.getPublicKey(secretKey)
  return { secretKey, publicKey, address: base58.encode(publicKey) }
}

const concat = (parts: ArrayLike<number>[]) =>
  Uint8Array.from(parts.flatMap((p) => [...Array.from(p)]))

/** A System Program transfer message (legacy or v0). */
function transferMessage(
  from: Uint8Array,
  to: Uint8Array,
  lamports: bigint,
  version: 'legacy' | 0,
) {
  const data = new Uint8Array(12)
  new DataView(data.buffer).setUint32(0, 2, true)
  new DataView(data.buffer).setBigUint64(4, lamports, true)
  const blockhash = base58.decode(ledger.svm.latestBlockhash())
  return concat([
    version === 0 ? [0x80] : [],
    [1, 0, 1, 3],
    from,
    to,
    new Uint8Array(32),
    blockhash,
    [1, 2, 2, 0, 1, 12],
    data,
    version === 0 ? [0] : [],
  ])
}

function transfer(lamports: bigint, version: 'legacy' | 0 = 'legacy') {
  const from = keypair()
  const to = keypair()
  const message = transferMessage(from.publicKey, to.publicKey, lamports, version)
  const wire = concat([[1], ed25519.sign(message, from.secretKey), message])
  return { from, to, message, wire, signature: base58.encode(wire.subarray(1, 65)) }
}

describe('startSolanaLedger', () => {
  it('answers JSON-RPC with CORS, -32601 for unknown methods and -32700 for bad JSON', async () => {
    const preflight = await fetch(ledger.rpcUrl, {
      method: 'OPTIONS',
      headers: { 'access-control-request-headers': 'content-type,solana-client' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type,solana-client')
    expect((await call('getHealth')).result).toBe('ok')
    expect(await call('eth_chainId')).toEqual({
      jsonrpc: '2.0',
      error: { code: -32601, message: 'Method not found' },
      id: 7,
    })
    const bad = await fetch(ledger.rpcUrl, { method: 'POST', body: '{' })
    expect(bad.headers.get('access-control-allow-origin')).toBe('*')
    expect((await bad.json()).error.code).toBe(-32700)
  })

  it('answers batches in order', async () => {
    const response = await fetch(ledger.rpcUrl, {
      method: 'POST',
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'getSlot' },
        { jsonrpc: '2.0', id: 2, method: 'nope' },
      ]),
    })
    const [first, second] = await response.json()
    expect(first).toMatchObject({ id: 1, result: expect.any(Number) })
    expect(second).toMatchObject({ id: 2, error: { code: -32601 } })
  })

  it('writes u64 values as exact JSON numbers', () => {
    expect(stringifyRpc({ rentEpoch: 18_446_744_073_709_551_615n, label: 'x' })).toBe(
      '{"rentEpoch":18446744073709551615,"label":"x"}',
    )
  })

  it('lands a SOL transfer: status, fee, balances and logs', async () => {
    const tx = transfer(1_000_000_000n)
    ledger.airdrop(tx.from.address, 2_000_000_000n)
    const fee = await call('getFeeForMessage', [base64.encode(tx.message)])
    expect(fee.result).toEqual({
      context: { apiVersion: expect.any(String), slot: expect.any(Number) },
      value: 5000,
    })

    const sent = await call('sendTransaction', [base64.encode(tx.wire), { encoding: 'base64' }])
    expect(sent.result).toBe(tx.signature)
    const statuses = await call('getSignatureStatuses', [
      [tx.signature, base58.encode(new Uint8Array(64))],
    ])
    expect(statuses.result.value).toEqual([
      {
        slot: expect.any(Number),
        confirmations: null,
        err: null,
        status: { Ok: null },
        confirmationStatus: 'finalized',
      },
      null,
    ])
    const { result } = await call('getTransaction', [tx.signature, { encoding: 'json' }])
    expect(result.meta).toMatchObject({
      err: null,
      fee: 5000,
      preBalances: [2_000_000_000, 0, 1],
      postBalances: [999_995_000, 1_000_000_000, 1],
      logMessages: [
        'Program 11111111111111111111111111111111 invoke [1]',
        'Program 11111111111111111111111111111111 success',
      ],
    })
    expect(result.transaction.message).toMatchObject({
      header: {
        numRequiredSignatures: 1,
        numReadonlySignedAccounts: 0,
        numReadonlyUnsignedAccounts: 1,
      },
      accountKeys: [tx.from.address, tx.to.address, '11111111111111111111111111111111'],
      instructions: [{ programIdIndex: 2, accounts: [0, 1], stackHeight: null }],
    })
    expect(result).not.toHaveProperty('version')
    expect((await call('getBalance', [tx.to.address])).result.value).toBe(1_000_000_000)
  })

  it('refuses a failing transaction at preflight with -32002 and its logs, landing nothing', async () => {
    const tx = transfer(5_000_000_000n)
    ledger.airdrop(tx.from.address, 1_000_000_000n)
    const sent = await call('sendTransaction', [base64.encode(tx.wire), { encoding: 'base64' }])
    expect(sent.error).toMatchObject({
      code: -32002,
      message:
        'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1',
      data: { err: { InstructionError: [0, { Custom: 1 }] }, accounts: null },
    })
    expect(sent.error.data.logs).toContain(
      'Transfer: insufficient lamports 999995000, need 5000000000',
    )
    expect((await call('getSignatureStatuses', [[tx.signature]])).result.value).toEqual([null])
    expect((await call('getBalance', [tx.from.address])).result.value).toBe(1_000_000_000)
  })

  it('with skipPreflight lands a failing transaction with err, logs and the fee charged', async () => {
    const tx = transfer(5_000_000_000n)
    ledger.airdrop(tx.from.address, 1_000_000_000n)
    const sent = await call('sendTransaction', [base58.encode(tx.wire), { skipPreflight: true }])
    expect(sent.result).toBe(tx.signature)
    const [status] = (await call('getSignatureStatuses', [[tx.signature]])).result.value
    expect(status).toMatchObject({
      err: { InstructionError: [0, { Custom: 1 }] },
      status: { Err: expect.anything() },
    })
    const { result } = await call('getTransaction', [
      tx.signature,
      { maxSupportedTransactionVersion: 0 },
    ])
    expect(result.version).toBe('legacy')
    expect(result.meta.err).toEqual({ InstructionError: [0, { Custom: 1 }] })
    expect(result.meta.logMessages).toContain(
      'Transfer: insufficient lamports 999995000, need 5000000000',
    )
    expect((await call('getBalance', [tx.from.address])).result.value).toBe(999_995_000)
  })

  it('drops, as a validator does, a transaction whose payer cannot pay the fee', async () => {
    const tx = transfer(1n)
    const sent = await call('sendTransaction', [base58.encode(tx.wire), { skipPreflight: true }])
    expect(sent.result).toBe(tx.signature)
    expect((await call('getSignatureStatuses', [[tx.signature]])).result.value).toEqual([null])
    const preflight = await call('sendTransaction', [base58.encode(tx.wire)])
    expect(preflight.error).toMatchObject({
      code: -32002,
      data: { err: 'AccountNotFound', logs: [] },
    })
  })

  it('asks for maxSupportedTransactionVersion before showing a v0 transaction', async () => {
    const tx = transfer(1_000_000_000n, 0)
    ledger.airdrop(tx.from.address, 2_000_000_000n)
    await call('sendTransaction', [base64.encode(tx.wire), { encoding: 'base64' }])
    expect((await call('getTransaction', [tx.signature])).error.code).toBe(-32015)
    const { result } = await call('getTransaction', [
      tx.signature,
      { maxSupportedTransactionVersion: 0, encoding: 'base64' },
    ])
    expect(result.version).toBe(0)
    expect(result.transaction).toEqual([base64.encode(tx.wire), 'base64'])
  })

  it('prices a message only while its blockhash is current', async () => {
    const tx = transfer(1n)
    expect((await call('getFeeForMessage', [base64.encode(tx.message)])).result.value).toBe(5000)
    const before = (await call('getLatestBlockhash')).result.value
    ledger.svm.expireBlockhash()
    const after = (await call('getLatestBlockhash')).result.value
    expect(after.blockhash).not.toBe(before.blockhash)
    expect((await call('getFeeForMessage', [base64.encode(tx.message)])).result.value).toBeNull()
    expect((await call('isBlockhashValid', [before.blockhash])).result.value).toBe(false)
  })

  it('simulates an unsigned transaction with the blockhash replaced', async () => {
    const tx = transfer(1_000_000_000n)
    ledger.airdrop(tx.from.address, 2_000_000_000n)
    ledger.svm.expireBlockhash()
    const unsigned = concat([[1], new Uint8Array(64), tx.message])
    const config = {
      encoding: 'base64',
      replaceRecentBlockhash: true,
      accounts: { addresses: [tx.to.address], encoding: 'base64' },
    }
    const { result } = await call('simulateTransaction', [base64.encode(unsigned), config])
    expect(result.value).toMatchObject({
      err: null,
      replacementBlockhash: { blockhash: ledger.svm.latestBlockhash() },
    })
    expect(result.value.accounts).toEqual([
      expect.objectContaining({
        lamports: 1_000_000_000,
        owner: '11111111111111111111111111111111',
      }),
    ])
  })

  it('mints SPL tokens and answers token balances, lists and parsed accounts', async () => {
    const owner = keypair().address
    const mint = ledger.createMint({ decimals: 6 })
    const ata = ledger.mintTo({ mint, owner, amount: 1_500_000n })
    expect(ata).toBe(ledger.associatedTokenAddress(owner, mint))
    expect((await call('getTokenAccountBalance', [ata])).result.value).toEqual({
      amount: '1500000',
      decimals: 6,
      uiAmount: 1.5,
      uiAmountString: '1.5',
    })
    const listed = await call('getTokenAccountsByOwner', [
      owner,
      { mint },
      { encoding: 'jsonParsed' },
    ])
    expect(listed.result.value).toEqual([
      {
        pubkey: ata,
        account: expect.objectContaining({
          owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
          space: 165,
          data: {
            program: 'spl-token',
            parsed: {
              type: 'account',
              info: {
                isNative: false,
                mint,
                owner,
                state: 'initialized',
                tokenAmount: {
                  amount: '1500000',
                  decimals: 6,
                  uiAmount: 1.5,
                  uiAmountString: '1.5',
                },
              },
            },
            space: 165,
          },
        }),
      },
    ])
    const info = await call('getAccountInfo', [mint, { encoding: 'jsonParsed' }])
    expect(info.result.value.data.parsed).toEqual({
      type: 'mint',
      info: {
        mintAuthority: null,
        supply: '1500000',
        decimals: 6,
        isInitialized: true,
        freezeAuthority: null,
      },
    })
    const raw = await call('getAccountInfo', [ata, { encoding: 'base64' }])
    expect(base64.decode(raw.result.value.data[0])).toHaveLength(165)
    const text = await (
      await fetch(ledger.rpcUrl, {
        method: 'POST',
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: [ata] }),
      })
    ).text()
    expect(text).toContain('"rentEpoch":18446744073709551615')
    expect((await call('getTokenAccountBalance', [owner])).error.code).toBe(-32602)
  })
})
