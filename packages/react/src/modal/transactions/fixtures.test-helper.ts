import {
  decodeEthereumTransaction,
  type EthereumTransactionInput,
  type PreparedEthereumTransaction,
  type TokenInfo,
} from '@latchkey/core/transactions'
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  erc721Abi,
  type Hex,
  parseEther,
  type TransactionReceipt,
} from 'viem'
import { anvil } from 'viem/chains'
import type { EthereumStepPreview, EthereumTransactionRequest } from '../../transaction-requests.ts'

// The confirm screen's tests build their requests here: Anvil's well-known
// accounts, a USDC-like token, and preview / prepare / scan / submit answers
// shaped as core gives them. No test runner import: the tests wrap what they
// watch in `vi.fn`.

export const WALLET: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
export const RECIPIENT: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
export const SPENDER: Address = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
export const USDC: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
export const NFT: Address = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
export const HASH: Hex = `0x${'ab'.repeat(32)}`
export const SECOND_HASH: Hex = `0x${'cd'.repeat(32)}`

export const usdc: TokenInfo = {
  address: USDC,
  kind: 'erc20',
  name: 'USD Coin',
  symbol: 'USDC',
  decimals: 6,
}
const nft: TokenInfo = { address: NFT, kind: 'erc721', name: 'Punks', symbol: 'PUNK' }

/** 0.5 ETH to RECIPIENT. */
export const ethSend: EthereumTransactionInput = { to: RECIPIENT, value: parseEther('0.5') }

/** `approve(SPENDER, amount)` on USDC. */
export const usdcApprove = (amount: bigint): EthereumTransactionInput => ({
  to: USDC,
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [SPENDER, amount] }),
})

/** `setApprovalForAll(SPENDER, true)` on an ERC-721 collection. */
export const nftApproveAll: EthereumTransactionInput = {
  to: NFT,
  data: encodeFunctionData({
    abi: erc721Abi,
    functionName: 'setApprovalForAll',
    args: [SPENDER, true],
  }),
}

/** What core's `preview` answers: the decoded call and the token contract it goes to. */
export function previewOf(input: EthereumTransactionInput): EthereumStepPreview {
  const token = input.to === USDC ? usdc : input.to === NFT ? nft : null
  return {
    decoded: decodeEthereumTransaction(input, { tokenKind: token?.kind }),
    token,
  }
}

/** 2 gwei per gas: a plain send's fee is 0.000042 ETH. */
const MAX_FEE_PER_GAS = 2_000_000_000n

/** What core's `prepare` answers: every field filled; 10 ETH in the wallet unless `balance` says otherwise. */
export function preparedOf(
  input: EthereumTransactionInput,
  { balance = parseEther('10'), nonce = 3 }: { balance?: bigint; nonce?: number } = {},
): PreparedEthereumTransaction {
  const gas = input.gas ?? (input.data ? 46_000n : 21_000n)
  const value = input.value ?? 0n
  const estimatedFee = gas * MAX_FEE_PER_GAS
  return {
    chain: anvil,
    from: WALLET,
    request: {
      chainId: anvil.id,
      type: 'eip1559',
      to: input.to ?? null,
      ...(input.data ? { data: input.data } : {}),
      value,
      nonce: input.nonce ?? nonce,
      gas,
      maxFeePerGas: MAX_FEE_PER_GAS,
      maxPriorityFeePerGas: 1_000_000_000n,
    },
    estimatedFee,
    balance,
    hasFunds: balance >= value + estimatedFee,
  }
}

export const receiptOf = (hash: Hex, status: 'success' | 'reverted' = 'success') =>
  ({ transactionHash: hash, status, blockNumber: 12n, gasUsed: 21_000n }) as TransactionReceipt

/** A request for the confirm screen; by default 0.5 ETH on Anvil, a node that cannot simulate, and a send that succeeds. */
export function ethereumRequest(
  overrides: Partial<EthereumTransactionRequest> = {},
): EthereumTransactionRequest {
  return {
    screen: 'ethereum-transaction',
    mode: 'send',
    address: WALLET,
    chain: anvil,
    requests: [ethSend],
    uiOptions: {},
    preview: async (input) => previewOf(input),
    prepare: async (input) => preparedOf(input),
    scan: async () => ({
      status: 'unsupported',
      reason: 'This node cannot simulate transactions.',
    }),
    submit: async () => ({ hash: HASH, receipt: receiptOf(HASH) }),
    explorerUrl: (hash) => `https://explorer.example/tx/${hash}`,
    entropyId: 'entropy-1',
    ...overrides,
  }
}

/** The value of the confirm screen's row called `label` ('Amount', 'To', …); null when there is none. */
export function rowText(label: string, container: ParentNode = document): string | null {
  for (const row of container.querySelectorAll('.lk-tx-row')) {
    if (row.querySelector('dt')?.textContent === label)
      return row.querySelector('dd')?.textContent ?? ''
  }
  return null
}

/** Every row label, in order. */
export const rowLabels = (container: ParentNode = document): string[] =>
  Array.from(container.querySelectorAll('.lk-tx-row dt'), (dt) => dt.textContent ?? '')
