// @vitest-environment node
import { type SolanaLedger, startSolanaLedger } from '@latchkey/server/test/solana'
import { address, generateKeyPairSigner } from '@solana/kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSolanaClient } from './rpc.ts'

let ledger: SolanaLedger

beforeAll(async () => {
  ledger = await startSolanaLedger()
})
afterAll(() => ledger.stop())

describe('createSolanaClient', () => {
  it('reads balances, blockhash and token balances from the node, u64 as bigint', async () => {
    const rpc = createSolanaClient(ledger.rpcUrl)
    const owner = (await generateKeyPairSigner()).address
    ledger.airdrop(owner, 3_000_000_000n)
    expect((await rpc.getBalance(owner).send()).value).toBe(3_000_000_000n)
    const { value } = await rpc.getLatestBlockhash().send()
    expect(value.blockhash).toBe(ledger.svm.latestBlockhash())

    const mint = ledger.createMint({ decimals: 9 })
    const held = ledger.mintTo({ mint, owner, amount: 2_500_000_000n })
    const balance = await rpc.getTokenAccountBalance(address(held)).send()
    expect(balance.value).toMatchObject({
      amount: '2500000000',
      decimals: 9,
      uiAmountString: '2.5',
    })
  })
})
