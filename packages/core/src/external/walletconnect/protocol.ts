// WalletConnect v2 Sign API wire types and relay options, as the dapp side
// uses them (specs: "Sign API" RPC methods; WalletConnect sign-client's
// ENGINE_RPC_OPTS for the TTLs and tags).

export interface Metadata {
  name: string
  description: string
  url: string
  icons: string[]
}

/** One CAIP-2 namespace of a session (`eip155`). */
export interface Namespace {
  chains?: string[]
  /** CAIP-10: `eip155:1:0xabc…` */
  accounts: string[]
  methods: string[]
  events: string[]
}

export interface ProposalNamespace {
  chains: string[]
  methods: string[]
  events: string[]
  rpcMap?: Record<string, string>
}

/** An approved session, as the client keeps it (and stores it across reloads). */
export interface Session {
  topic: string
  symKey: string
  namespaces: Record<string, Namespace>
  /** Seconds since the epoch. */
  expiry: number
  peer: { publicKey: string; metadata: Metadata }
}

export interface JsonRpcRequest {
  id: number
  jsonrpc: '2.0'
  method: string
  params: Record<string, unknown>
}

export interface JsonRpcResponse {
  id: number
  jsonrpc: '2.0'
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

const FIVE_MINUTES = 300
const ONE_DAY = 86_400

/** TTL (seconds) and relay tag of each Sign API request and its response. */
export const RPC_OPTS = {
  wc_sessionPropose: {
    req: { ttl: FIVE_MINUTES, prompt: true, tag: 1100 },
    res: { ttl: FIVE_MINUTES, tag: 1101 },
  },
  wc_sessionSettle: {
    req: { ttl: FIVE_MINUTES, tag: 1102 },
    res: { ttl: FIVE_MINUTES, tag: 1103 },
  },
  wc_sessionUpdate: { req: { ttl: ONE_DAY, tag: 1104 }, res: { ttl: ONE_DAY, tag: 1105 } },
  wc_sessionExtend: { req: { ttl: ONE_DAY, tag: 1106 }, res: { ttl: ONE_DAY, tag: 1107 } },
  wc_sessionRequest: {
    req: { ttl: FIVE_MINUTES * 3, prompt: true, tag: 1108 },
    res: { ttl: FIVE_MINUTES * 3, tag: 1109 },
  },
  wc_sessionEvent: {
    req: { ttl: FIVE_MINUTES, prompt: true, tag: 1110 },
    res: { ttl: FIVE_MINUTES, tag: 1111 },
  },
  wc_sessionDelete: { req: { ttl: ONE_DAY, tag: 1112 }, res: { ttl: ONE_DAY, tag: 1113 } },
  wc_sessionPing: { req: { ttl: ONE_DAY, tag: 1114 }, res: { ttl: ONE_DAY, tag: 1115 } },
} as const

export type SignMethod = keyof typeof RPC_OPTS

export const isSignMethod = (method: string): method is SignMethod => method in RPC_OPTS

/** How long a proposal waits for the wallet (the proposal request's TTL). */
export const PROPOSAL_TTL_S = FIVE_MINUTES

/** The pairing URI the QR code carries (WalletConnect utils' `formatUri`: query keys sorted). */
export function pairingUri(topic: string, symKey: string, expiryTimestamp: number): string {
  return `wc:${topic}@2?expiryTimestamp=${expiryTimestamp}&relay-protocol=irn&symKey=${symKey}`
}

/** A JSON-RPC error as a thrown value that keeps `code` and `data` (the adapter maps the codes). */
export function rpcError(error: { code?: number; message?: string; data?: unknown }): Error {
  return Object.assign(new Error(error.message ?? 'WalletConnect error'), {
    code: error.code,
    data: error.data,
  })
}

const isStrings = (list: unknown) =>
  Array.isArray(list) && list.every((item) => typeof item === 'string')

/** Session namespaces the adapter can read: string lists of accounts, methods, events (and chains). */
export function isNamespaces(value: unknown): value is Record<string, Namespace> {
  if (typeof value !== 'object' || value === null) return false
  return Object.values(value).every((namespace: Partial<Namespace> | null) => {
    if (typeof namespace !== 'object' || namespace === null) return false
    const { accounts, methods, events, chains } = namespace
    return (
      isStrings(accounts) &&
      isStrings(methods) &&
      isStrings(events) &&
      (chains === undefined || isStrings(chains))
    )
  })
}
