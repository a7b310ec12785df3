import { AccountRole, createNoopSigner } from '@solana/kit'
import {
  getCreateAccountInstruction,
  getTransferSolInstruction,
  SYSTEM_PROGRAM_ADDRESS,
} from '@solana-program/system'
import { describe, expect, it } from 'vitest'
import { decodeSolTransfer } from './sol-transfer.ts'
import { roundTripOne, testAddress } from './wire.test-helper.ts'

const alice = testAddress(1)
const bob = testAddress(2)

describe('decodeSolTransfer', () => {
  it('reads a System transfer: sender, recipient and lamports', () => {
    const instruction = roundTripOne(
      getTransferSolInstruction({
        source: createNoopSigner(alice),
        destination: bob,
        amount: 1_500_000n,
      }),
      alice,
    )
    expect(decodeSolTransfer(instruction)).toEqual({
      type: 'sol-transfer',
      from: alice,
      to: bob,
      lamports: 1_500_000n,
    })
  })

  it('reads the full u64 range of lamports', () => {
    const amount = 18_446_744_073_709_551_615n
    const instruction = roundTripOne(
      getTransferSolInstruction({ source: createNoopSigner(alice), destination: bob, amount }),
      alice,
    )
    expect(decodeSolTransfer(instruction)?.lamports).toBe(amount)
  })

  it('answers undefined for another System instruction', () => {
    const instruction = roundTripOne(
      getCreateAccountInstruction({
        payer: createNoopSigner(alice),
        newAccount: createNoopSigner(bob),
        lamports: 1_000n,
        space: 0n,
        programAddress: SYSTEM_PROGRAM_ADDRESS,
      }),
      alice,
    )
    expect(decodeSolTransfer(instruction)).toBeUndefined()
  })

  it('answers undefined for the same bytes sent to another program', () => {
    const transfer = getTransferSolInstruction({
      source: createNoopSigner(alice),
      destination: bob,
      amount: 5n,
    })
    const instruction = roundTripOne({ ...transfer, programAddress: testAddress(9) }, alice)
    expect(decodeSolTransfer(instruction)).toBeUndefined()
  })

  it('answers undefined for a transfer missing its recipient account', () => {
    const transfer = getTransferSolInstruction({
      source: createNoopSigner(alice),
      destination: bob,
      amount: 5n,
    })
    const instruction = roundTripOne(
      { ...transfer, accounts: [{ address: alice, role: AccountRole.WRITABLE_SIGNER }] },
      alice,
    )
    expect(decodeSolTransfer(instruction)).toBeUndefined()
  })
})
