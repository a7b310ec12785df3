import type { IdentifierString, Wallet, WalletAccount } from '@wallet-standard/base'

// The test Solana wallet's in-page half (solana.ts installs it).

export interface TestSolanaWalletFeatures {
  /** `solana:signIn`. Default true. */
  signIn?: boolean
  /** `solana:signMessage`. Default true. */
  signMessage?: boolean
  /** `solana:signTransaction` (legacy and v0 transactions). Default false. */
  signTransaction?: boolean
}

export interface PageArg {
  binding: string
  hook: string
  name: string
  icon: string
  chains: IdentifierString[]
  address: string
  publicKey: number[]
  features: Required<TestSolanaWalletFeatures>
  allFrames: boolean
}

/**
 * Runs in the page (serialized by Playwright: it may use nothing from outside
 * its own body). Builds the Wallet Standard wallet and registers it.
 */
export function solanaPageScript(arg: PageArg) {
  const w = window as unknown as Record<string, unknown>
  if (!arg.allFrames && window.top !== window) return
  if (w[arg.hook]) return // already installed in this document
  Object.defineProperty(w, arg.hook, { value: true, enumerable: false })

  const request = async (method: string, params?: unknown): Promise<unknown> => {
    const call = w[arg.binding] as (
      method: string,
      params: unknown,
    ) => Promise<{ result?: unknown; error?: { code: number; message: string } }>
    const envelope = await call(method, params)
    if (envelope.error)
      throw Object.assign(new Error(envelope.error.message), { code: envelope.error.code })
    return envelope.result
  }

  const featureNames: IdentifierString[] = []
  if (arg.features.signIn) featureNames.push('solana:signIn')
  if (arg.features.signMessage) featureNames.push('solana:signMessage')
  if (arg.features.signTransaction) featureNames.push('solana:signTransaction')
  const account: WalletAccount = Object.freeze({
    address: arg.address,
    publicKey: new Uint8Array(arg.publicKey),
    chains: Object.freeze([...arg.chains]),
    features: Object.freeze(featureNames),
  })
  const ownAccount = (input: { account: WalletAccount }) => {
    if (input.account?.address !== account.address)
      throw Object.assign(new Error('Unknown account'), { code: 4100 })
  }

  let accounts: readonly WalletAccount[] = []
  const changeListeners = new Set<(properties: { accounts: readonly WalletAccount[] }) => void>()
  const setAccounts = (next: readonly WalletAccount[]) => {
    if (next.length === accounts.length) return
    accounts = Object.freeze([...next])
    for (const listener of [...changeListeners]) {
      try {
        listener({ accounts })
      } catch (error) {
        console.error(error)
      }
    }
  }

  const features: Record<string, unknown> = {
    'standard:connect': {
      version: '1.0.0',
      connect: async (input?: { silent?: boolean }) => {
        const authorized = await request('standard:connect', { silent: input?.silent === true })
        if (authorized) setAccounts([account])
        return { accounts }
      },
    },
    'standard:disconnect': {
      version: '1.0.0',
      disconnect: async () => {
        await request('standard:disconnect')
        setAccounts([])
      },
    },
    'standard:events': {
      version: '1.0.0',
      on: (
        event: string,
        listener: (properties: { accounts: readonly WalletAccount[] }) => void,
      ) => {
        if (event !== 'change') return () => {}
        changeListeners.add(listener)
        return () => {
          changeListeners.delete(listener)
        }
      },
    },
  }
  if (arg.features.signMessage)
    features['solana:signMessage'] = {
      version: '1.0.0',
      signMessage: async (...inputs: Array<{ account: WalletAccount; message: Uint8Array }>) => {
        for (const input of inputs) ownAccount(input)
        const outputs = (await request(
          'solana:signMessage',
          inputs.map((input) => Array.from(input.message)),
        )) as Array<{ signedMessage: number[]; signature: number[] }>
        return outputs.map((output) => ({
          signedMessage: new Uint8Array(output.signedMessage),
          signature: new Uint8Array(output.signature),
          signatureType: 'ed25519',
        }))
      },
    }
  if (arg.features.signIn)
    features['solana:signIn'] = {
      version: '1.0.0',
      signIn: async (...inputs: Array<Record<string, unknown>>) => {
        const list = inputs.length ? inputs : [{}]
        const outputs = (await request('solana:signIn', {
          // Plain copies: only the SIWS fields (strings and a string array) cross the binding.
          inputs: list.map((input) => JSON.parse(JSON.stringify(input ?? {}))),
          host: location.host,
        })) as Array<{ signedMessage: number[]; signature: number[] }>
        setAccounts([account])
        return outputs.map((output) => ({
          account,
          signedMessage: new Uint8Array(output.signedMessage),
          signature: new Uint8Array(output.signature),
          signatureType: 'ed25519',
        }))
      },
    }
  if (arg.features.signTransaction)
    features['solana:signTransaction'] = {
      version: '1.0.0',
      supportedTransactionVersions: Object.freeze(['legacy', 0]),
      signTransaction: async (
        ...inputs: Array<{ account: WalletAccount; transaction: Uint8Array }>
      ) => {
        for (const input of inputs) ownAccount(input)
        const outputs = (await request(
          'solana:signTransaction',
          inputs.map((input) => Array.from(input.transaction)),
        )) as number[][]
        return outputs.map((signed) => ({ signedTransaction: new Uint8Array(signed) }))
      },
    }

  const wallet: Wallet = {
    version: '1.0.0',
    name: arg.name,
    icon: arg.icon as Wallet['icon'],
    chains: Object.freeze([...arg.chains]),
    features: Object.freeze(features) as Wallet['features'],
    get accounts() {
      return accounts
    },
  }

  // The Wallet Standard handshake (as @wallet-standard/wallet's registerWallet does it).
  const callback = ({ register }: { register(...wallets: Wallet[]): unknown }) => register(wallet)
  try {
    window.dispatchEvent(
      new CustomEvent('wallet-standard:register-wallet', {
        detail: callback,
        bubbles: false,
        cancelable: false,
        composed: false,
      }),
    )
  } catch (error) {
    console.error('wallet-standard:register-wallet event could not be dispatched\n', error)
  }
  window.addEventListener('wallet-standard:app-ready', (event) =>
    callback((event as CustomEvent<{ register(...wallets: Wallet[]): unknown }>).detail),
  )
}
