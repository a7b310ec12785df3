import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LatchkeyError } from '../errors.ts'
import { type FakeRelay, startFakeRelay } from '../test/fake-relay.ts'
import {
  createBridgeClient,
  RELAY_EVM_NATIVE_CURRENCY,
  RELAY_SOLANA_CHAIN_ID,
  RELAY_SOLANA_NATIVE_CURRENCY,
} from './createBridgeClient.ts'

// Spec 03 §7 "Bridging": POST /quote, the answer read as message or
// steps[0].items[0].data and details.currencyIn (its amount and decimals);
// GET /requests/v2?hash= read as requests[0].status, defaulting to pending.

const evmWallet = '0xc216eD2D6c295579718dbd4a797845CdA70B3C36'
const solanaWallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
let relay: FakeRelay
beforeEach(async () => {
  relay = await startFakeRelay()
})
afterEach(() => relay.close())

describe('bridge quote', () => {
  it('posts the documented input, native currencies by default, and reads the deposit transaction', async () => {
    const bridge = createBridgeClient({ apiUrl: relay.url })
    const quote = await bridge.quote({
      user: evmWallet,
      recipient: solanaWallet,
      originChainId: 8453,
      destinationChainId: RELAY_SOLANA_CHAIN_ID,
      amount: 10n ** 16n,
    })
    expect(relay.quotes).toEqual([
      {
        user: evmWallet,
        recipient: solanaWallet,
        originChainId: 8453,
        destinationChainId: RELAY_SOLANA_CHAIN_ID,
        originCurrency: RELAY_EVM_NATIVE_CURRENCY,
        destinationCurrency: RELAY_SOLANA_NATIVE_CURRENCY,
        amount: '10000000000000000',
        tradeType: 'EXACT_INPUT',
      },
    ])
    expect(quote.tx).toEqual({
      kind: 'evm',
      from: evmWallet,
      to: '0xf70da97812cb96acdf810712aa562db8dfa3dbef',
      value: 10n ** 16n,
      chainId: 8453,
      data: '0x58109c',
    })
    expect(quote.amountIn).toBe('0.01')
    expect(quote.amountOut).toBe('0.198')
    expect(quote.requestId).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('reads Solana instructions when the origin is Solana', async () => {
    const bridge = createBridgeClient({ apiUrl: relay.url })
    const quote = await bridge.quote({
      user: solanaWallet,
      recipient: evmWallet,
      originChainId: RELAY_SOLANA_CHAIN_ID,
      destinationChainId: 1,
      amount: '2000000000',
    })
    expect(relay.quotes[0]?.originCurrency).toBe(RELAY_SOLANA_NATIVE_CURRENCY)
    expect(relay.quotes[0]?.destinationCurrency).toBe(RELAY_EVM_NATIVE_CURRENCY)
    expect(quote.tx.kind).toBe('solana')
    if (quote.tx.kind !== 'solana') return
    expect(quote.tx.instructions[0]?.programId).toBe('11111111111111111111111111111111')
    expect(quote.tx.instructions[0]?.keys[0]).toEqual({
      pubkey: solanaWallet,
      isSigner: true,
      isWritable: true,
    })
    expect(quote.amountIn).toBe('2')
  })

  it("formats the amounts from Relay's base units and decimals, not its amountFormatted text", async () => {
    const bridge = createBridgeClient({ apiUrl: relay.url })
    // The local Relay answers amountFormatted '5e-10' for 500 000 000 wei.
    const answers: unknown[] = []
    const quote = await createBridgeClient({
      apiUrl: relay.url,
      fetch: async (input, init) => {
        const response = await fetch(input, init)
        const body = await response.json()
        answers.push(body)
        return Response.json(body, { status: response.status })
      },
    }).quote({
      user: evmWallet,
      recipient: solanaWallet,
      originChainId: 8453,
      destinationChainId: RELAY_SOLANA_CHAIN_ID,
      amount: 500_000_000n,
    })
    const details = (answers[0] as { details: Record<string, Record<string, unknown>> }).details
    expect(details.currencyIn?.amountFormatted).toBe('5e-10')
    expect(details.currencyIn?.amount).toBe('500000000')
    expect(quote.amountIn).toBe('0.0000000005')
    expect(quote.amountOut).toBe('0.00000001') // 10 lamports
    // 1.234567 SOL in: 3 fraction digits for an amount of 1 or more (spec 03 §9).
    const sol = await bridge.quote({
      user: solanaWallet,
      recipient: evmWallet,
      originChainId: RELAY_SOLANA_CHAIN_ID,
      destinationChainId: 1,
      amount: '1234567000',
    })
    expect(sol.amountIn).toBe('1.235')
  })

  it("fails with BRIDGE_QUOTE_FAILED carrying Relay's message", async () => {
    relay.failQuotes({
      status: 400,
      message: 'Amount is higher than the available liquidity',
      errorCode: 'AMOUNT_TOO_HIGH',
    })
    const bridge = createBridgeClient({ apiUrl: relay.url })
    const error = (await bridge
      .quote({
        user: evmWallet,
        recipient: solanaWallet,
        originChainId: 1,
        destinationChainId: RELAY_SOLANA_CHAIN_ID,
        amount: 1n,
      })
      .catch((e: unknown) => e)) as LatchkeyError
    expect(error).toBeInstanceOf(LatchkeyError)
    expect(error.code).toBe('BRIDGE_QUOTE_FAILED')
    expect(error.shortMessage).toBe('Amount is higher than the available liquidity')
    expect(error.userMessage.title).toBe('Unable to fetch quotes for bridging')
    expect(error.status).toBe(400)
    expect(error.details).toEqual({ errorCode: 'AMOUNT_TOO_HIGH' })
  })

  it("fails with BRIDGE_QUOTE_FAILED on Relay's own validation (amount too low)", async () => {
    const bridge = createBridgeClient({ apiUrl: relay.url })
    await expect(
      bridge.quote({
        user: evmWallet,
        recipient: solanaWallet,
        originChainId: 1,
        destinationChainId: RELAY_SOLANA_CHAIN_ID,
        amount: 0n,
      }),
    ).rejects.toMatchObject({
      code: 'BRIDGE_QUOTE_FAILED',
      shortMessage: 'Amount is too low to cover fees',
    })
  })

  it('fails with BRIDGE_QUOTE_FAILED when the service cannot be reached', async () => {
    const url = relay.url
    await relay.close()
    const bridge = createBridgeClient({ apiUrl: url })
    await expect(
      bridge.quote({
        user: evmWallet,
        recipient: solanaWallet,
        originChainId: 1,
        destinationChainId: RELAY_SOLANA_CHAIN_ID,
        amount: 1n,
      }),
    ).rejects.toMatchObject({ code: 'BRIDGE_QUOTE_FAILED' })
    relay = await startFakeRelay()
  })
})

describe('bridge status', () => {
  it('reads requests[0].status by deposit hash, pending while Relay has none', async () => {
    const bridge = createBridgeClient({ apiUrl: relay.url })
    const hash = `0x${'ab'.repeat(32)}`
    expect(await bridge.status(hash)).toEqual({ status: 'pending', requestId: undefined })
    relay.setStatuses(hash, ['waiting'])
    const reading = await bridge.status(hash)
    expect(reading.status).toBe('waiting')
    expect(reading.requestId).toMatch(/^0x/)
    expect(relay.statusReads).toEqual([hash, hash])
  })

  it("links to Relay's request page, on testnets.relay.link for the testnets API", () => {
    expect(createBridgeClient({ apiUrl: 'https://api.relay.link' }).requestUrl('0x12')).toBe(
      'https://relay.link/transaction/0x12',
    )
    expect(
      createBridgeClient({ apiUrl: 'https://api.testnets.relay.link/' }).requestUrl('0x12'),
    ).toBe('https://testnets.relay.link/transaction/0x12')
  })
})
