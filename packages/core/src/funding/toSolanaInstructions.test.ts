import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getBase58Decoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type FakeRelay, startFakeRelay } from '../test/fake-relay.ts'
import { createBridgeClient, RELAY_SOLANA_CHAIN_ID } from './createBridgeClient.ts'
import { toSolanaInstructions } from './toSolanaInstructions.ts'

// Solana → Ethereum bridging: the quote's Solana deposit, as instructions
// @solana/kit compiles into a transaction.
const solanaWallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
let relay: FakeRelay
beforeEach(async () => {
  relay = await startFakeRelay()
})
afterEach(() => relay.close())

describe('toSolanaInstructions', () => {
  it("turns the quote's instructions into @solana/kit instructions with roles and bytes", async () => {
    const quote = await createBridgeClient({ apiUrl: relay.url }).quote({
      user: solanaWallet,
      recipient: '0xc216eD2D6c295579718dbd4a797845CdA70B3C36',
      originChainId: RELAY_SOLANA_CHAIN_ID,
      destinationChainId: 8453,
      amount: 1_000_000_000n,
    })
    if (quote.tx.kind !== 'solana') throw new Error('expected a Solana deposit')
    const [transfer] = toSolanaInstructions(quote.tx)
    expect(transfer?.programAddress).toBe('11111111111111111111111111111111')
    expect(transfer?.accounts).toEqual([
      { address: solanaWallet, role: AccountRole.WRITABLE_SIGNER },
      { address: 'F7p3dFrjRTbtRp8FRF6qHLomXbKRBzpvBLjtQcfcgmNe', role: AccountRole.WRITABLE },
    ])
    expect(transfer?.data?.[0]).toBe(2)

    const compiled = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(address(solanaWallet), m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          {
            blockhash: getBase58Decoder().decode(new Uint8Array(32).fill(7)) as never,
            lastValidBlockHeight: 100n,
          },
          m,
        ),
      (m) => appendTransactionMessageInstructions(toSolanaInstructions(quote.tx as never), m),
      (m) => compileTransaction(m),
    )
    expect(Object.keys(compiled.signatures)).toEqual([solanaWallet])
  })

  it('maps read-only and signer-only keys to their roles', () => {
    const [instruction] = toSolanaInstructions({
      kind: 'solana',
      addressLookupTableAddresses: [],
      instructions: [
        {
          programId: 'ComputeBudget111111111111111111111111111111',
          keys: [
            { pubkey: solanaWallet, isSigner: true, isWritable: false },
            {
              pubkey: 'SysvarRent111111111111111111111111111111111',
              isSigner: false,
              isWritable: false,
            },
          ],
          data: '0x02a086',
        },
      ],
    })
    expect(instruction?.accounts?.map((a) => a.role)).toEqual([
      AccountRole.READONLY_SIGNER,
      AccountRole.READONLY,
    ])
    expect([...(instruction?.data ?? [])]).toEqual([2, 0xa0, 0x86])
  })

  it('refuses malformed instruction data with BRIDGE_QUOTE_FAILED', () => {
    expect(() =>
      toSolanaInstructions({
        kind: 'solana',
        addressLookupTableAddresses: [],
        instructions: [{ programId: solanaWallet, keys: [], data: 'xyz' }],
      }),
    ).toThrow(expect.objectContaining({ code: 'BRIDGE_QUOTE_FAILED' }))
  })
})
