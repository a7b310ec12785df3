import type { ErrorCode } from '@latchkey/protocol/errors'
import type { WalletSecret } from '@latchkey/protocol/keys'
import {
  deriveEthereumAccount,
  deriveSolanaAccount,
  mnemonicOf,
  reconstructAndVerify,
  wipeSecret,
} from '@latchkey/protocol/keys'
import { bytesToHex } from '@noble/hashes/utils.js'
import { base58 } from '@scure/base'
import { base64urlToBytes } from '../encoding.ts'
import type { ServerApi } from '../page/api.ts'
import { type ChannelWindow, readyTargets } from '../page/channel.ts'
import type { EnclaveConfig } from '../page/config.ts'
import { PageError, toErrorBody } from '../page/errors.ts'
import type { DeviceShareStore } from '../page/store.ts'
import {
  type CopiedWhat,
  EXPORT_COPIED_EVENT,
  EXPORT_ERROR_EVENT,
  EXPORT_ESCAPE_EVENT,
  EXPORT_LOADED_EVENT,
  EXPORT_READY_EVENT,
  type ExportInit,
  type ExportLoaded,
  exportInitSchema,
} from './messages.ts'
import {
  createExportView,
  type ExportView,
  RECOVERY_REQUIRED_TEXT,
  type SecretItem,
  type Theme,
} from './view.ts'

export interface ClipboardLike {
  writeText(text: string): Promise<void>
}

export interface ExportPageDeps {
  window: ChannelWindow
  document: Document
  config: EnclaveConfig
  api: Pick<ServerApi, 'authShare'>
  store: Pick<DeviceShareStore, 'get'>
  /** Default: `navigator.clipboard`. */
  clipboard?: ClipboardLike
  /** The palette before (or without) an init `theme`. Default: light. */
  prefersDark?: boolean
}

export type ExportOutcome =
  | { status: 'loaded'; loaded: ExportLoaded }
  | { status: 'error'; code: ErrorCode; message: string }

export interface ExportPage {
  /** Settles once the one accepted init has been handled (never, if none arrives). */
  readonly outcome: Promise<ExportOutcome>
  view: ExportView
  stop(): void
}

/** The exported key material of one wallet, as strings the user can paste elsewhere. */
export interface ExportedKeys {
  address: string
  /** Ethereum: `0x` + 64 hex; Solana: base58 of the 64-byte `seed ‖ publicKey` (Phantom's import format). */
  privateKey: string
  /** The 12-word phrase of an HD secret; `null` for an imported key. */
  seedPhrase: string | null
}

/** Derives what the export page shows from a reconstructed secret (the caller wipes the secret). */
export function exportedKeysOf(
  secret: WalletSecret,
  chain: 'ethereum' | 'solana',
  index: number,
): ExportedKeys {
  const seedPhrase = secret.kind === 'hd' ? mnemonicOf(secret) : null
  if (chain === 'ethereum') {
    const account = deriveEthereumAccount(secret, index)
    try {
      return {
        address: account.address,
        privateKey: `0x${bytesToHex(account.privateKey)}`,
        seedPhrase,
      }
    } finally {
      account.privateKey.fill(0)
    }
  }
  const account = deriveSolanaAccount(secret, index)
  const keypair = new Uint8Array(64)
  try {
    keypair.set(account.seed, 0)
    keypair.set(account.publicKey, 32)
    return { address: account.address, privateKey: base58.encode(keypair), seedPhrase }
  } finally {
    keypair.fill(0)
    account.seed.fill(0)
  }
}

/**
 * The key-export page (security bar 44): the host frames it visibly in its
 * modal and sends one `latchkey:export:init`; the page rebuilds the secret
 * from this origin's device share and the server's auth share, and shows
 * copy (and reveal) buttons. Key material stays in this page: it is never
 * posted to the host, and enters the DOM only when the user presses Reveal.
 */
export function startExportPage(deps: ExportPageDeps): ExportPage {
  const { window: win, config, api, store } = deps
  const parent = win.parent && win.parent !== (win as unknown) ? win.parent : null
  const allowed = new Set(config.origins)
  const view = createExportView(deps.document, deps.prefersDark ? 'dark' : 'light')
  const clipboard: ClipboardLike | undefined =
    deps.clipboard ?? (globalThis.navigator as Navigator | undefined)?.clipboard
  let accepted = false
  // The host's exact origin, once its init was accepted: where Escape goes.
  let hostOrigin: string | null = null
  let resolveOutcome: (outcome: ExportOutcome) => void = () => {}
  const outcome = new Promise<ExportOutcome>((resolve) => {
    resolveOutcome = resolve
  })

  view.showLoading()

  function onMessage(event: MessageEvent) {
    if (accepted || !parent || event.source !== parent) return
    if (typeof event.origin !== 'string' || !allowed.has(event.origin)) return
    const parsed = exportInitSchema.safeParse(event.data)
    if (!parsed.success) return
    accepted = true
    win.removeEventListener('message', onMessage)
    const origin = event.origin
    hostOrigin = origin
    void load(parsed.data.data, origin).then(resolveOutcome)
  }

  function post(origin: string, message: { event: string; data?: object }) {
    parent?.postMessage(message, origin)
  }

  // Keys pressed in this frame never reach the host page: forward Escape so
  // the host's dialog closes as it does everywhere else (issue 16, item 7).
  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'Escape' || event.isComposing || !hostOrigin) return
    event.preventDefault()
    post(hostOrigin, { event: EXPORT_ESCAPE_EVENT })
  }

  async function load(init: ExportInit, origin: string): Promise<ExportOutcome> {
    if (init.theme) view.setTheme(init.theme as Theme)
    try {
      const keys = await reconstruct(init)
      const loaded: ExportLoaded = {
        address: keys.address,
        chain_type: init.chain_type,
        wallet_index: init.wallet_index ?? 0,
        has_seed_phrase: keys.seedPhrase !== null,
      }
      const items: SecretItem[] = [
        {
          id: 'private-key',
          label: 'Private key',
          copyLabel: 'Copy private key',
          value: keys.privateKey,
        },
      ]
      if (keys.seedPhrase !== null)
        items.push({
          id: 'seed-phrase',
          label: 'Seed phrase',
          copyLabel: 'Copy seed phrase',
          value: keys.seedPhrase,
        })
      view.showWallet({
        address: keys.address,
        items,
        copy: async (item) => {
          if (!clipboard) return false
          try {
            await clipboard.writeText(item.value)
          } catch {
            return false
          }
          const what: CopiedWhat = item.id === 'private-key' ? 'private_key' : 'seed_phrase'
          post(origin, { event: EXPORT_COPIED_EVENT, data: { what } })
          return true
        },
      })
      post(origin, { event: EXPORT_LOADED_EVENT, data: loaded })
      return { status: 'loaded', loaded }
    } catch (error) {
      const body = toErrorBody(error)
      if (body.code === 'RECOVERY_REQUIRED')
        view.showMessage(
          RECOVERY_REQUIRED_TEXT,
          'This device does not hold this wallet yet. Open your wallet on this device to recover it, then export again.',
        )
      else view.showMessage('Unable to export this wallet', body.message)
      post(origin, { event: EXPORT_ERROR_EVENT, data: body })
      return { status: 'error', ...body }
    }
  }

  async function reconstruct(init: ExportInit): Promise<ExportedKeys> {
    let record: Awaited<ReturnType<typeof store.get>>
    try {
      record = await store.get(config.appId, init.entropy_id)
    } catch (error) {
      if (error instanceof PageError) throw error
      // E.g. the browser blocks storage in third-party frames.
      throw new PageError(
        'WALLET_PROXY_UNAVAILABLE',
        'This browser does not let the wallet read its storage',
      )
    }
    if (!record) throw new PageError('RECOVERY_REQUIRED', RECOVERY_REQUIRED_TEXT)
    let authShare: Uint8Array | undefined
    let secret: WalletSecret | undefined
    try {
      authShare = base64urlToBytes(
        (await api.authShare(init.access_token, init.entropy_id)).auth_share,
      )
      secret = await reconstructAndVerify(record.deviceShare, authShare, init.entropy_id)
      return exportedKeysOf(secret, init.chain_type, init.wallet_index ?? 0)
    } finally {
      authShare?.fill(0)
      if (secret) wipeSecret(secret)
      record.deviceShare.fill(0)
    }
  }

  win.addEventListener('message', onMessage)
  deps.document.addEventListener('keydown', onKeyDown)
  if (parent)
    for (const origin of readyTargets(win, config.origins))
      parent.postMessage({ event: EXPORT_READY_EVENT }, origin)

  return {
    outcome,
    view,
    stop() {
      win.removeEventListener('message', onMessage)
      deps.document.removeEventListener('keydown', onKeyDown)
      view.clear()
    },
  }
}
