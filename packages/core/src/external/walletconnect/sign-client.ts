import { decrypt, deriveSymKey, encrypt, generateKeyPair, randomHex32, topicOf } from './crypto.ts'
import {
  isNamespaces,
  isSignMethod,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Metadata,
  type Namespace,
  PROPOSAL_TTL_S,
  type ProposalNamespace,
  pairingUri,
  RPC_OPTS,
  rpcError,
  type Session,
  type SignMethod,
} from './protocol.ts'
import { createRelaySocket, payloadId, type RelayMessage } from './relay-socket.ts'
import { loadIdentity, loadSession, storeSession } from './session-store.ts'
import type { WalletConnectStorage } from './storage.ts'

// The dapp side of WalletConnect v2's Sign API: propose a session over a new
// pairing, take the wallet's settlement, send wc_sessionRequest, follow the
// wallet's events, updates, extensions, pings and deletion. No Auth/Notify
// API, no Verify attestation, no telemetry (docs/login-wallets.md "How WalletConnect is wired").

/** WalletConnect's USER_DISCONNECTED reason. */
const USER_DISCONNECTED = { code: 6000, message: 'User disconnected.' }
/** A session's lifetime after the wallet extends it (Sign's SESSION_EXPIRY, 7 days). */
const SESSION_EXPIRY_S = 7 * 86_400
/** setTimeout's largest delay (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1

export interface SignClientOptions {
  projectId: string
  relayUrl: string
  metadata: Metadata
  storage: WalletConnectStorage
}

export interface SignClientEvents {
  session_event(params: SessionEventParams): void
  session_update(): void
  /** The wallet ended the session, or it expired. */
  session_delete(): void
}

type SignClientEvent = keyof SignClientEvents

export interface SessionEventParams {
  event: { name: string; data: unknown }
  chainId: string
}

export interface SignClient {
  /** The approved session, or null. */
  readonly session: Session | null
  /**
   * Proposes a session on a new pairing; `onUri` gets the `wc:` URI once
   * the relay has the proposal. Resolves with the session the wallet
   * settles, rejects with its error (`code` 5000…) or when the proposal expires.
   */
  connect(
    namespaces: Record<string, ProposalNamespace>,
    onUri: (uri: string) => void,
  ): Promise<Session>
  /** A wc_sessionRequest: resolves with the wallet's result, rejects with its error. */
  request(args: { chainId: string; method: string; params: unknown }): Promise<unknown>
  /** Ends the session on both sides (wc_sessionDelete). */
  disconnect(): Promise<void>
  on<E extends SignClientEvent>(event: E, listener: SignClientEvents[E]): void
  /** Closes the relay socket and stops the timers (tests). */
  close(): void
}

interface Proposal {
  id: number
  pairingTopic: string
  pairingSymKey: string
  privateKey: string
  /** Known once the wallet answered the proposal. */
  sessionTopic?: string
  sessionSymKey?: string
  resolve(session: Session): void
  reject(error: Error): void
  timer: ReturnType<typeof setTimeout>
}

const nowS = () => Math.floor(Date.now() / 1000)

/**
 * A WalletConnect v2 dapp client. A session stored by an earlier page is
 * restored at once (`session` is set before this resolves) and its topic
 * subscribed again in the background.
 */
export async function createSignClient(options: SignClientOptions): Promise<SignClient> {
  const { storage } = options
  const seed = await loadIdentity(storage)
  const listeners = new Map<SignClientEvent, Set<(params: never) => void>>()
  const waiting = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>()
  let session: Session | null = null
  let proposal: Proposal | null = null
  let expiryTimer: ReturnType<typeof setTimeout> | undefined

  const socket = createRelaySocket({
    relayUrl: options.relayUrl,
    projectId: options.projectId,
    seed,
    onMessage,
    shouldReconnect: () => session !== null || proposal !== null,
  })

  function emit(event: SignClientEvent, params?: unknown) {
    for (const listener of listeners.get(event) ?? []) (listener as (p: unknown) => void)(params)
  }

  function setSession(next: Session | null) {
    session = next
    clearTimeout(expiryTimer)
    if (!next) return
    const left = next.expiry * 1000 - Date.now()
    // A session longer than setTimeout's limit waits in steps.
    expiryTimer = setTimeout(
      () =>
        left > MAX_TIMER_MS
          ? setSession(next)
          : void endSession('The WalletConnect session expired'),
      Math.min(Math.max(left, 0), MAX_TIMER_MS),
    )
  }

  const saveSession = () => storeSession(storage, session)

  /**
   * Forgets the session (deleted by either side, or expired): pending
   * requests fail with 4900; `session_delete` unless we ended it ourselves.
   */
  async function endSession(reason: string, byUs = false) {
    const ended = session
    if (!ended) return
    setSession(null)
    for (const [id, pending] of waiting) {
      waiting.delete(id)
      pending.reject(rpcError({ code: 4900, message: reason }))
    }
    if (!byUs) emit('session_delete')
    await Promise.all([saveSession(), socket.unsubscribe(ended.topic)])
  }

  async function send(
    topic: string,
    symKey: string,
    payload: JsonRpcRequest | JsonRpcResponse,
    opts: { ttl: number; tag: number; prompt?: boolean },
  ) {
    await socket.publish(topic, encrypt(symKey, JSON.stringify(payload)), opts)
  }

  /** The keys that open a message on `topic`, when it is one of ours. */
  function keysFor(topic: string) {
    if (session?.topic === topic) return { symKey: session.symKey }
    if (proposal?.pairingTopic === topic)
      return { symKey: proposal.pairingSymKey, privateKey: proposal.privateKey }
    if (proposal?.sessionTopic === topic && proposal.sessionSymKey)
      return { symKey: proposal.sessionSymKey }
    return null
  }

  function onMessage({ topic, message }: RelayMessage) {
    const keys = keysFor(topic)
    if (!keys) return
    let payload: Partial<JsonRpcRequest & JsonRpcResponse>
    try {
      payload = JSON.parse(decrypt(message, keys))
    } catch {
      return // not for us, or altered on the way (the Poly1305 tag did not match)
    }
    if (typeof payload !== 'object' || payload === null || typeof payload.id !== 'number') return
    if (typeof payload.method === 'string')
      void onRequest(topic, keys.symKey, payload as JsonRpcRequest).catch(() => undefined)
    else void onResponse(payload as JsonRpcResponse).catch(() => undefined)
  }

  async function onResponse(response: JsonRpcResponse) {
    const current = proposal
    if (current && response.id === current.id) return onProposalResponse(current, response)
    const pending = waiting.get(response.id)
    if (!pending) return
    waiting.delete(response.id)
    if (response.error) pending.reject(rpcError(response.error))
    else pending.resolve(response.result)
  }

  /** The wallet's answer on the pairing topic: its X25519 key (approved) or an error (rejected). */
  async function onProposalResponse(current: Proposal, response: JsonRpcResponse) {
    if (current.sessionTopic) return
    const responder = (response.result as { responderPublicKey?: unknown } | undefined)
      ?.responderPublicKey
    if (response.error || typeof responder !== 'string' || !/^[0-9a-f]{64}$/.test(responder)) {
      finishProposal(current)
      current.reject(
        rpcError(response.error ?? { code: -32603, message: 'Malformed proposal response' }),
      )
      return
    }
    current.sessionSymKey = deriveSymKey(current.privateKey, responder)
    current.sessionTopic = topicOf(current.sessionSymKey)
    await socket.subscribe(current.sessionTopic)
  }

  function finishProposal(current: Proposal) {
    clearTimeout(current.timer)
    if (proposal === current) proposal = null
    void socket.unsubscribe(current.pairingTopic)
  }

  async function onRequest(topic: string, symKey: string, request: JsonRpcRequest) {
    const { method, params } = request
    if (!isSignMethod(method)) return // pairing pings and deletes, Auth/Notify: not ours
    const ack = () =>
      send(topic, symKey, { id: request.id, jsonrpc: '2.0', result: true }, RPC_OPTS[method].res)
    if (method === 'wc_sessionSettle') return onSettle(topic, request, ack)
    if (session?.topic !== topic) return
    switch (method as SignMethod) {
      case 'wc_sessionUpdate': {
        const { namespaces } = params
        if (!isNamespaces(namespaces)) return
        setSession({ ...session, namespaces })
        await Promise.all([saveSession(), ack()])
        emit('session_update')
        return
      }
      case 'wc_sessionExtend': {
        // Sign 2.x sends no expiry: both sides count a fresh SESSION_EXPIRY from now.
        setSession({ ...session, expiry: nowS() + SESSION_EXPIRY_S })
        await Promise.all([saveSession(), ack()])
        return
      }
      case 'wc_sessionEvent':
        await ack()
        emit('session_event', params as unknown as SessionEventParams)
        return
      case 'wc_sessionPing':
        await ack()
        return
      case 'wc_sessionDelete':
        await ack().catch(() => undefined)
        await endSession('The wallet ended the WalletConnect session')
        return
    }
  }

  /** wc_sessionSettle on the new session topic: the session is live. */
  async function onSettle(topic: string, request: JsonRpcRequest, ack: () => Promise<void>) {
    const current = proposal
    const params = request.params as {
      namespaces?: Record<string, Namespace>
      expiry?: number
      controller?: { publicKey: string; metadata: Metadata }
    }
    if (session?.topic === topic) return // delivered again: acknowledged the first time
    if (!current || current.sessionTopic !== topic || !current.sessionSymKey) return
    if (!isNamespaces(params.namespaces) || typeof params.expiry !== 'number') return
    if (typeof params.controller?.publicKey !== 'string' || !params.controller.metadata) return
    finishProposal(current)
    setSession({
      topic,
      symKey: current.sessionSymKey,
      namespaces: params.namespaces,
      expiry: params.expiry,
      peer: params.controller,
    })
    await saveSession()
    current.resolve(session as Session)
    await ack()
  }

  const stored = await loadSession(storage)
  if (stored) {
    setSession(stored)
    socket.subscribe(stored.topic).catch(() => undefined)
  }

  return {
    get session() {
      return session
    },
    async connect(namespaces, onUri) {
      if (proposal) {
        finishProposal(proposal)
      }
      const pairingSymKey = randomHex32()
      const pairingTopic = topicOf(pairingSymKey)
      const keys = generateKeyPair()
      const expiryTimestamp = nowS() + PROPOSAL_TTL_S
      const id = payloadId()
      const settled = new Promise<Session>((resolve, reject) => {
        const timer = setTimeout(() => {
          if (proposal?.id === id) finishProposal(proposal)
          reject(new Error('The WalletConnect proposal expired'))
        }, PROPOSAL_TTL_S * 1000)
        proposal = {
          id,
          pairingTopic,
          pairingSymKey,
          privateKey: keys.privateKey,
          resolve,
          reject,
          timer,
        }
      })
      const request: JsonRpcRequest = {
        id,
        jsonrpc: '2.0',
        method: 'wc_sessionPropose',
        params: {
          requiredNamespaces: {},
          optionalNamespaces: namespaces,
          relays: [{ protocol: 'irn' }],
          proposer: { publicKey: keys.publicKey, metadata: options.metadata },
          expiryTimestamp,
          pairingTopic,
          id,
        },
      }
      try {
        // The relay's shortcut publishes the proposal and subscribes us to the
        // pairing topic; our own subscription is what a reconnect renews.
        await Promise.all([
          socket.subscribe(pairingTopic),
          socket.request('wc_proposeSession', {
            pairingTopic,
            sessionProposal: encrypt(pairingSymKey, JSON.stringify(request)),
            ttl: RPC_OPTS.wc_sessionPropose.req.ttl,
          }),
        ])
      } catch (error) {
        if (proposal?.id === id) finishProposal(proposal)
        throw error
      }
      onUri(pairingUri(pairingTopic, pairingSymKey, expiryTimestamp))
      return settled
    },
    async request({ chainId, method, params }) {
      const current = session
      if (!current) throw rpcError({ code: 4900, message: 'No WalletConnect session' })
      const id = payloadId()
      const result = new Promise<unknown>((resolve, reject) => waiting.set(id, { resolve, reject }))
      const payload: JsonRpcRequest = {
        id,
        jsonrpc: '2.0',
        method: 'wc_sessionRequest',
        params: { request: { method, params }, chainId },
      }
      try {
        await send(current.topic, current.symKey, payload, RPC_OPTS.wc_sessionRequest.req)
      } catch (error) {
        waiting.delete(id)
        throw error
      }
      return result
    },
    async disconnect() {
      const current = session
      if (!current) return
      const payload: JsonRpcRequest = {
        id: payloadId(),
        jsonrpc: '2.0',
        method: 'wc_sessionDelete',
        params: USER_DISCONNECTED,
      }
      // The session ends here even when the relay cannot take the notice.
      await send(current.topic, current.symKey, payload, RPC_OPTS.wc_sessionDelete.req).catch(
        () => undefined,
      )
      await endSession('Disconnected', true)
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set.add(listener))
    },
    close() {
      clearTimeout(expiryTimer)
      if (proposal) clearTimeout(proposal.timer)
      socket.close()
    },
  }
}
