// @vitest-environment node
import {
  ANVIL_DEV_KEY,
  type AnvilNode,
  deployTestTokens,
  startAnvil,
  type TestTokens,
} from '@latchkey/server/test/chains'
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  type PublicClient,
  parseEther,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BalanceReading, watchBalance } from './watchBalance.ts'

// Spec 03 §4 "Manual receive" on a real chain: another account funds the
// wallet, the watch sees the rise (funded) and the requested amount (green).

let anvil: AnvilNode
let chain: PublicClient
let tokens: TestTokens
const funder = privateKeyToAccount(ANVIL_DEV_KEY)

beforeAll(async () => {
  anvil = await startAnvil({ chainId: foundry.id })
  chain = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) })
  tokens = await deployTestTokens(anvil.rpcUrl, { mintTo: funder.address })
}, 60_000)
afterAll(() => anvil?.stop())

/** Resolves with the first reading that satisfies `test`. */
function watchUntil(read: () => Promise<bigint>, test: (reading: BalanceReading) => boolean) {
  const controller = new AbortController()
  const readings: BalanceReading[] = []
  let baselineTaken: () => void = () => {}
  const baseline = new Promise<void>((resolve) => {
    baselineTaken = resolve
  })
  const reached = new Promise<BalanceReading>((resolve) => {
    watchBalance({
      read,
      // Short polls: the test waits for the reading, not for the interval.
      intervalMs: 20,
      onChange: (reading) => {
        readings.push(reading)
        baselineTaken()
        if (test(reading)) {
          controller.abort()
          resolve(reading)
        }
      },
      signal: controller.signal,
    })
  })
  return { readings, baseline, reached }
}

describe('watchBalance on Anvil', () => {
  it('sees native ETH sent by another account: funded, then green at the requested amount', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address
    const sender = createWalletClient({
      account: funder,
      chain: foundry,
      transport: http(anvil.rpcUrl),
    })
    const requested = parseEther('0.5')
    const { readings, baseline, reached } = watchUntil(
      () => chain.getBalance({ address: wallet }),
      (reading) => reading.atLeast(requested),
    )
    await baseline
    await sender.sendTransaction({ to: wallet, value: parseEther('0.2') })
    await sender.sendTransaction({ to: wallet, value: parseEther('0.3') })
    const last = await reached
    expect(readings[0]).toMatchObject({ balance: 0n, baseline: 0n, funded: false })
    expect(last).toMatchObject({ balance: parseEther('0.5'), baseline: 0n, funded: true })
  })

  it('sees an ERC-20 (6 decimals, like USDC) transfer', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address
    const sender = createWalletClient({
      account: funder,
      chain: foundry,
      transport: http(anvil.rpcUrl),
    })
    const read = () =>
      chain.readContract({
        address: tokens.erc20.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [wallet],
      })
    const { baseline, reached } = watchUntil(read, (reading) => reading.funded)
    await baseline
    await sender.writeContract({
      address: tokens.erc20.address,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [wallet, 5_000_000n],
    })
    const funded = await reached
    expect(funded.balance).toBe(5_000_000n)
    expect(funded.atLeast(5_000_000n)).toBe(true)
    expect(funded.atLeast(5_000_001n)).toBe(false)
  })
})
