import { type LatchkeyError, ProviderRpcError } from '@latchkey/core'
import type { PreparedSolanaTransaction } from '@latchkey/core/solana'
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type ConnectedSolanaWallet, useSolanaWallets } from '../hooks/useWallets.ts'
import { rowText } from '../modal/transactions/fixtures.test-helper.ts'
import type { LatchkeyInstance } from '../store.ts'
import { renderWithWallets, SOL_ADDRESS } from '../test/wallet.tsx'
import type { SolanaTransactionRequest } from '../transaction-requests.ts'
import { useSendTransaction } from './useSendTransaction.ts'
import { useSignAndSendTransaction } from './useSignAndSendTransaction.ts'
import { useSignTransaction } from './useSignTransaction.ts'

// The hooks through the real modal, the enclave a stub. Reading the cluster
// needs @solana/kit's RPC, which does not run under happy-dom: each opened
// request gets a `prepare` answering as core would (the ledger-backed
// prepare and send are hooks/solana-transactions.test.ts's).

beforeAll(async () => {
  await import('../modal/chunk.ts')
  await import('../modal/transactions/solana/SolanaTransactionScreen.tsx')
})
afterEach(cleanup)

const RECIPIENT = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'
const SIGNATURE =
  '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW'
const WIRE = new Uint8Array([1, ...new Array(64).fill(0), 0x80, 1, 0, 1])
/** WIRE with the wallet's signature (64 bytes of 7) in its slot. */
const SIGNED = new Uint8Array([1, ...new Array(64).fill(7), 0x80, 1, 0, 1])
const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')

const prepared: PreparedSolanaTransaction = {
  fee: 5000n,
  spender: SOL_ADDRESS,
  instructions: [{ type: 'sol-transfer', from: SOL_ADDRESS, to: RECIPIENT, lamports: 10_000_000n }],
  balance: 1_000_000_000n,
  hasFunds: true,
  version: 0,
}
const DEVNET = { name: 'devnet', rpcUrl: 'https://api.devnet.solana.com' }

type Hooks = {
  sign: ReturnType<typeof useSignTransaction>['signTransaction']
  send: ReturnType<typeof useSendTransaction>['sendTransaction']
  signAndSend: ReturnType<typeof useSignAndSendTransaction>['signAndSendTransaction']
  wallets: ReturnType<typeof useSolanaWallets>['wallets']
}

function Probe({ hooks }: { hooks: Hooks }) {
  hooks.sign = useSignTransaction().signTransaction
  hooks.send = useSendTransaction().sendTransaction
  hooks.signAndSend = useSignAndSendTransaction().signAndSendTransaction
  hooks.wallets = useSolanaWallets().wallets
  return null
}

/**
 * Renders the hooks; every Solana request they open gets `prepare` (and,
 * when given, `submit`) answered here. `opened` holds what they asked for.
 */
function setup(submit?: SolanaTransactionRequest['submit'], chains?: Array<'ethereum' | 'solana'>) {
  const hooks = {} as Hooks
  const rpc = vi.fn(() => ({ result: base64url(SIGNED) }))
  const rendered = renderWithWallets(<Probe hooks={hooks} />, { rpc, chains })
  const { instance } = rendered
  instance.setHostConfig({ solanaClusters: [{ name: 'mainnet-beta', rpcUrl: 'x' }, DEVNET] })
  const opened: SolanaTransactionRequest[] = []
  const open = instance.openWalletScreen.bind(instance) as LatchkeyInstance['openWalletScreen']
  vi.spyOn(instance, 'openWalletScreen').mockImplementation((request) => {
    if (request.screen !== 'solana-transaction') return open(request)
    opened.push(request)
    return open({ ...request, prepare: async () => prepared, ...(submit ? { submit } : {}) })
  })
  return { hooks, rpc, opened, instance }
}

const outcome = <T,>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )

async function approveThenDone(receipt: string) {
  const approve = (await screen.findByRole('button', { name: 'Approve' })) as HTMLButtonElement
  await waitFor(() => expect(approve.disabled).toBe(false))
  fireEvent.click(approve)
  await screen.findByRole('heading', { name: receipt })
  fireEvent.click(screen.getByRole('button', { name: 'All Done' }))
}

const sent = async () => ({ signedTransaction: SIGNED, signature: SIGNATURE, fees: 5000n })

describe('Solana transaction hooks', () => {
  it('useSignTransaction: the confirm screen on the first cluster, signed in the enclave, resolves with the signed bytes', async () => {
    const { hooks, rpc, opened } = setup()
    const result = hooks.sign({ transaction: WIRE })
    await screen.findByRole('heading', { name: 'Confirm transaction' })
    await waitFor(() => expect(rowText('Network')).toBe('Solana'))
    expect(rowText('Amount')).toBe('0.01 SOL')
    expect(opened[0]).toMatchObject({ mode: 'sign', address: SOL_ADDRESS, transaction: WIRE })
    await approveThenDone('Transaction signed!')
    expect(await result).toEqual({ signedTransaction: SIGNED })
    expect(rpc).toHaveBeenCalledWith(
      expect.objectContaining({
        chain_type: 'solana',
        request: { method: 'signTransaction', params: { transaction: base64url(WIRE) } },
      }),
    )
  })

  it('useSendTransaction: on the cluster named, resolves with the base58 signature, fees and signed bytes', async () => {
    const { hooks, opened } = setup(sent)
    const result = hooks.send({ transaction: WIRE, cluster: 'devnet' })
    await approveThenDone('Transaction complete!')
    expect(await result).toEqual({ signature: SIGNATURE, fees: 5000n, signedTransaction: SIGNED })
    expect(opened[0]).toMatchObject({ mode: 'send', cluster: DEVNET })
  })

  it('useSignAndSendTransaction: resolves with the 64-byte signature', async () => {
    const { hooks } = setup(sent)
    const result = hooks.signAndSend({ transaction: WIRE })
    await approveThenDone('Transaction complete!')
    expect(await result).toEqual({ signature: new Uint8Array(64).fill(7) })
  })

  it('rejects with ProviderRpcError 4001 when the screen is closed before approving', async () => {
    const { hooks, rpc } = setup()
    const result = outcome(hooks.send({ transaction: WIRE }))
    await screen.findByRole('heading', { name: 'Confirm transaction' })
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    const { error } = (await result) as { error: ProviderRpcError }
    expect(error).toBeInstanceOf(ProviderRpcError)
    expect(error.code).toBe(4001)
    expect(rpc).not.toHaveBeenCalled()
  })

  it('refuses without a screen: no transaction, a cluster the app lacks, no Solana wallet', async () => {
    const { hooks, instance } = setup()
    const code = async (promise: Promise<unknown>) =>
      ((await outcome(promise)) as { error: LatchkeyError }).error.code
    expect(await code(hooks.send({ transaction: new Uint8Array() }))).toBe(
      'INVALID_TRANSACTION_REQUEST',
    )
    expect(await code(hooks.send({ transaction: WIRE, cluster: 'testnet' }))).toBe(
      'UNSUPPORTED_CHAIN',
    )
    expect(instance.getUiState().requested).toBe(false)
    cleanup()
    const ethereumOnly = setup(undefined, ['ethereum'])
    expect(await code(ethereumOnly.hooks.sign({ transaction: WIRE }))).toBe(
      'EMBEDDED_WALLET_NOT_FOUND',
    )
    // Spec 03 §8: a named wallet that is not this user's embedded one.
    const named = await outcome(
      ethereumOnly.hooks.send({
        transaction: WIRE,
        address: 'So11111111111111111111111111111111111111112',
      }),
    )
    expect((named as { error: LatchkeyError }).error).toMatchObject({
      code: 'EMBEDDED_WALLET_NOT_FOUND',
      message:
        'Cannot sendSolanaTransaction before embedded wallet So11111111111111111111111111111111111111112 is connected',
    })
  })
})

describe('useSolanaWallets: embedded wallets', () => {
  it('signTransaction and signAndSendTransaction go through the confirm screen', async () => {
    const { hooks, opened } = setup(sent)
    const wallet = hooks.wallets[0] as ConnectedSolanaWallet
    const signed = wallet.signTransaction(WIRE)
    await approveThenDone('Transaction signed!')
    expect(await signed).toEqual(SIGNED)
    const sentResult = wallet.signAndSendTransaction(WIRE, { cluster: 'devnet' })
    await approveThenDone('Transaction complete!')
    expect(await sentResult).toEqual({ signature: SIGNATURE })
    expect(opened.map((r) => [r.mode, r.cluster.name])).toEqual([
      ['sign', 'mainnet-beta'],
      ['send', 'devnet'],
    ])
  })
})
