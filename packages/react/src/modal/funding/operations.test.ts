// @vitest-environment node
import { LatchkeyError, USDC_SOLANA_MINT } from '@latchkey/core'
import {
  type AnvilNode,
  deployTestTokens,
  startAnvil,
  type TestTokens,
} from '@latchkey/server/test/chains'
import { type SolanaLedger, startSolanaLedger } from '@latchkey/server/test/solana'
import { type Chain, defineChain } from 'viem'
import { base, foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LatchkeyInstance } from '../../store.ts'
import { type FundingTarget, fundWalletOperations, networkName, readBalance } from './operations.ts'

// Token details, balances and the QR payload of the funding request against
// real nodes: Anvil with the test tokens, and the LiteSVM ledger with a mint
// at devnet USDC's address.
const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const SOLANA_WALLET = 'FsJ3A3u2vn5cTVofAjvy6y5kwABJAqYWpe4975bi2epH'
let anvil: AnvilNode
let ledger: SolanaLedger
let chain: Chain
let tokens: TestTokens

beforeAll(async () => {
  ;[anvil, ledger] = await Promise.all([startAnvil(), startSolanaLedger()])
  chain = defineChain({ ...foundry, rpcUrls: { default: { http: [anvil.rpcUrl] } } })
  tokens = await deployTestTokens(anvil.rpcUrl, { mintTo: DEV_ACCOUNT })
}, 60_000)
afterAll(async () => {
  await anvil?.stop()
  await ledger?.stop()
})

// The token, balance and QR operations never reach the Latchkey server.
const instance = { client: null } as unknown as LatchkeyInstance
const ops = (target: FundingTarget, asset: Parameters<typeof fundWalletOperations>[1]['asset']) =>
  fundWalletOperations(instance, {
    address: target.chainType === 'ethereum' ? DEV_ACCOUNT : SOLANA_WALLET,
    target,
    asset,
    amount: '2.5',
    config: null,
  })

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (e: unknown) => (e instanceof LatchkeyError ? e.code : String(e)),
  )

describe('funding operations on Ethereum (Anvil)', () => {
  it("reads the native currency from the chain's definition and the balance from the node", async () => {
    const target = { chainType: 'ethereum', chain } as const
    const token = await ops(target, 'native-currency').token()
    expect(token).toEqual({ name: 'Ether', symbol: 'ETH', decimals: 18 })
    expect(await readBalance(target, DEV_ACCOUNT, token)).toBeGreaterThan(0n)
  })

  it("reads an ERC-20's symbol and decimals, and its balance with balanceOf", async () => {
    const target = { chainType: 'ethereum', chain } as const
    const funding = ops(target, { erc20: tokens.erc20.address })
    const token = await funding.token()
    expect(token).toEqual({ symbol: 'TUSD', decimals: 6, address: tokens.erc20.address })
    expect(await readBalance(target, DEV_ACCOUNT, token)).toBe(1_000_000_000n)
    expect(funding.paymentUri(token)).toBe(
      `ethereum:${tokens.erc20.address}@31337/transfer?address=${DEV_ACCOUNT}&uint256=2500000`,
    )
  })

  it("'Unable to fetch token details' for a contract that is no ERC-20, or USDC on a chain without it", async () => {
    const target = { chainType: 'ethereum', chain } as const
    expect(await code(ops(target, { erc20: tokens.erc721.address }).token())).toBe(
      'TOKEN_DETAILS_FAILED',
    )
    expect(await code(ops(target, 'USDC').token())).toBe('TOKEN_DETAILS_FAILED')
  })

  it("USDC on Base is Circle's contract with 6 decimals; the QR asks for it in base units", async () => {
    const target = { chainType: 'ethereum', chain: base } as const
    const funding = ops(target, 'USDC')
    const token = await funding.token()
    expect(token).toEqual({
      symbol: 'USDC',
      decimals: 6,
      address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    })
    expect(funding.paymentUri(token)).toBe(
      `ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=${DEV_ACCOUNT}&uint256=2500000`,
    )
    expect(networkName(target)).toBe('Base')
  })
})

describe('funding operations on Solana (LiteSVM ledger)', () => {
  it('reads SOL in lamports; the QR is a Solana Pay URL', async () => {
    ledger.airdrop(SOLANA_WALLET, 3_000_000_000n)
    const target = {
      chainType: 'solana',
      cluster: { name: 'devnet', rpcUrl: ledger.rpcUrl },
    } as const
    const funding = ops(target, 'native-currency')
    const token = await funding.token()
    expect(token).toEqual({ symbol: 'SOL', decimals: 9 })
    expect(await readBalance(target, SOLANA_WALLET, token)).toBe(3_000_000_000n)
    expect(funding.paymentUri(token)).toBe(`solana:${SOLANA_WALLET}?amount=2.5`)
    expect(networkName(target)).toBe('Devnet')
  })

  it("reads USDC from the owner's token accounts; the QR adds the spl-token parameter", async () => {
    const mint = ledger.createMint({ address: USDC_SOLANA_MINT.devnet, decimals: 6 })
    ledger.mintTo({ mint, owner: SOLANA_WALLET, amount: 7_250_000n })
    const target = {
      chainType: 'solana',
      cluster: { name: 'devnet', rpcUrl: ledger.rpcUrl },
    } as const
    const funding = ops(target, 'USDC')
    const token = await funding.token()
    expect(token).toEqual({ symbol: 'USDC', decimals: 6, address: USDC_SOLANA_MINT.devnet })
    expect(await readBalance(target, SOLANA_WALLET, token)).toBe(7_250_000n)
    expect(funding.paymentUri(token)).toBe(
      `solana:${SOLANA_WALLET}?amount=2.5&spl-token=${USDC_SOLANA_MINT.devnet}`,
    )
  })

  it("an app's own cluster keeps its name; USDC has no mint there", async () => {
    const target = {
      chainType: 'solana',
      cluster: { name: 'localnet', rpcUrl: ledger.rpcUrl },
    } as const
    expect(networkName(target)).toBe('localnet')
    expect(await code(ops(target, 'USDC').token())).toBe('TOKEN_DETAILS_FAILED')
  })
})
