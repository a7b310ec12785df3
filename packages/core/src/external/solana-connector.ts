import { LatchkeyError } from '../errors.ts'
import { withWalletTimeout } from './errors.ts'
import type { ConnectorContext } from './ethereum-connector.ts'
import { slugForWallet } from './listings.ts'
import {
  SOLANA_CONNECT,
  SOLANA_DISCONNECT,
  SOLANA_EVENTS,
  SOLANA_SIGN_IN,
  SOLANA_SIGN_MESSAGE,
  SOLANA_SIGN_TRANSACTION,
  type StandardWallet,
  type StandardWalletAccount,
} from './solana-discovery.ts'
import type { ConnectedSolanaExternalWallet, SolanaSignInInput } from './types.ts'

type Features = Record<string, Record<string, (...a: never[]) => unknown>>

const bytesOf = (value: Uint8Array | ArrayLike<number>) =>
  value instanceof Uint8Array ? value : Uint8Array.from(value)

function solanaWallet(
  ctx: ConnectorContext,
  key: string,
  standard: StandardWallet,
  account: StandardWalletAccount,
  connectedAt: number,
): ConnectedSolanaExternalWallet {
  const features = standard.features as Features
  const signInFeature = features[SOLANA_SIGN_IN]
  const signTx = features[SOLANA_SIGN_TRANSACTION]
  const chain = account.chains.find((c) => c.startsWith('solana:')) ?? 'solana:mainnet'
  const walletClientType = slugForWallet(standard.name)
  const timeoutMs = ctx.rpcTimeoutMs(walletClientType)
  return {
    type: 'solana',
    address: account.address,
    chainId: null,
    connectedAt,
    walletClientType,
    connectorType: 'solana_adapter',
    imported: false,
    meta: { name: standard.name, icon: standard.icon ?? null, id: key },
    rpcTimeoutMs: timeoutMs,
    async signMessage(message) {
      const feature = features[SOLANA_SIGN_MESSAGE]
      if (!feature) throw new LatchkeyError('UNSUPPORTED_METHOD')
      const call = feature.signMessage as unknown as (input: {
        account: StandardWalletAccount
        message: Uint8Array
      }) => Promise<Array<{ signature: Uint8Array }>>
      const [output] = await withWalletTimeout(call({ account, message }), timeoutMs)
      if (!output) throw new LatchkeyError('WALLET_LOGIN_FAILED')
      return bytesOf(output.signature)
    },
    ...(signInFeature
      ? {
          async signIn(input: SolanaSignInInput) {
            const call = signInFeature.signIn as unknown as (
              input: SolanaSignInInput,
            ) => Promise<Array<{ signedMessage: Uint8Array; signature: Uint8Array }>>
            const [output] = await withWalletTimeout(call(input), timeoutMs)
            if (!output) throw new LatchkeyError('WALLET_LOGIN_FAILED')
            return {
              signedMessage: bytesOf(output.signedMessage),
              signature: bytesOf(output.signature),
            }
          },
        }
      : {}),
    ...(signTx
      ? {
          async signTransaction(transaction: Uint8Array) {
            const call = signTx.signTransaction as unknown as (input: {
              account: StandardWalletAccount
              transaction: Uint8Array
              chain: string
            }) => Promise<Array<{ signedTransaction: Uint8Array }>>
            const [output] = await withWalletTimeout(
              call({ account, transaction, chain }),
              timeoutMs,
            )
            if (!output) throw new LatchkeyError('WALLET_LOGIN_FAILED')
            return bytesOf(output.signedTransaction)
          },
        }
      : {}),
    disconnect: async () => {
      ctx.store.remove('solana', key)
      const disconnect = features[SOLANA_DISCONNECT]?.disconnect as
        | (() => Promise<void>)
        | undefined
      await disconnect?.().catch(() => undefined)
    },
  }
}

/**
 * Connects a Wallet Standard (Solana) wallet with `standard:connect`
 * (`silent: true` asks for no prompt), stores the connection and follows
 * its account changes.
 */
export async function connectSolana(
  ctx: ConnectorContext,
  key: string,
  standard: StandardWallet,
  silent = false,
  connectedAt?: number,
): Promise<ConnectedSolanaExternalWallet> {
  const features = standard.features as Features
  const connect = features[SOLANA_CONNECT]?.connect as
    | ((input?: { silent?: boolean }) => Promise<{ accounts: readonly StandardWalletAccount[] }>)
    | undefined
  if (!connect) throw new LatchkeyError('WALLET_NOT_FOUND_EXTERNAL')
  const { accounts } = await withWalletTimeout(
    connect(silent ? { silent: true } : undefined),
    ctx.rpcTimeoutMs(slugForWallet(standard.name)),
  )
  const account = accounts.find((a) => a.chains.some((c) => c.startsWith('solana:'))) ?? accounts[0]
  if (!account) throw new LatchkeyError('WALLET_NO_ACCOUNTS')
  const wallet = solanaWallet(ctx, key, standard, account, connectedAt ?? ctx.now())
  ctx.store.upsert(wallet)
  ctx.store.setConnector(key, 'connected')
  const on = features[SOLANA_EVENTS]?.on as
    | ((
        event: 'change',
        listener: (p: { accounts?: readonly StandardWalletAccount[] }) => void,
      ) => () => void)
    | undefined
  ctx.store.stopFollowing(key)
  if (on)
    ctx.store.follow(
      key,
      on('change', ({ accounts: next }) => {
        if (!next) return
        const first = next[0]
        if (!first) return ctx.store.remove('solana', key)
        const current = ctx.store
          .getState()
          .wallets.find((w) => w.type === 'solana' && w.meta.id === key)
        if (current) ctx.store.upsert(solanaWallet(ctx, key, standard, first, current.connectedAt))
      }),
    )
  return wallet
}
