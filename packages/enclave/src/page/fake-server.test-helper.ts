import { routes } from '@latchkey/protocol/routes'
import {
  addEmbeddedWalletRequestSchema,
  createEmbeddedWalletsRequestSchema,
  entropyRequestSchema,
  type RecoveryMaterial,
  setRecoveryRequestSchema,
  type UserWire,
} from '@latchkey/protocol/schemas'
import type { FetchLike } from './api.ts'

interface StoredSecret {
  owner: string
  authShare: string
  recovery: RecoveryMaterial
  imported: boolean
}

/**
 * A stand-in for the server's share-storage routes (protocol schemas in,
 * protocol shapes out), with one user per bearer token. `failNext` makes the
 * next call to a path answer an error.
 */
export function createFakeServer(options: { appId: string }) {
  const secrets = new Map<string, StoredSecret>()
  const wallets = new Map<string, UserWire['linked_accounts']>()
  const failures = new Map<string, { status: number; body: unknown } | 'network'>()
  const calls: { path: string; headers: Record<string, string>; body: unknown }[] = []

  const key = (id: string) => id.toLowerCase()
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  const userOf = (owner: string): UserWire => ({
    id: owner,
    created_at: 1,
    linked_accounts: wallets.get(owner) ?? [],
    mfa_methods: [],
    has_accepted_terms: false,
    is_guest: false,
  })
  const addWallet = (
    owner: string,
    entropyId: string,
    w: { chain_type: 'ethereum' | 'solana'; address: string; wallet_index: number | null },
  ) => {
    const secret = secrets.get(key(entropyId)) as StoredSecret
    const list = wallets.get(owner) ?? []
    list.push({
      type: 'wallet',
      address: w.address,
      chain_type: w.chain_type,
      wallet_index: w.wallet_index,
      wallet_client_type: 'latchkey',
      connector_type: 'embedded',
      imported: secret.imported,
      delegated: false,
      recovery_method: secret.recovery.method,
      entropy_id: entropyId,
      verified_at: 1,
      first_verified_at: 1,
      latest_verified_at: 1,
    })
    wallets.set(owner, list)
  }
  const invalid = { code: 'INVALID_PAYLOAD', message: 'The request payload is invalid' }

  const fetch: FetchLike = async (input, init) => {
    const path = input
    const headers = Object.fromEntries(new Headers(init.headers).entries())
    const body = init.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ path, headers, body })
    const failure = failures.get(path)
    if (failure) {
      failures.delete(path)
      if (failure === 'network') throw new TypeError('Failed to fetch')
      return json(failure.status, failure.body)
    }
    if (headers['latchkey-app-id'] !== options.appId)
      return json(404, { code: 'APP_NOT_FOUND', message: 'x' })
    const owner = headers.authorization?.match(/^Bearer (user-\w+)$/)?.[1]
    if (!owner) return json(401, { code: 'UNAUTHORIZED', message: 'Unable to authorize user' })
    const owned = (id: string) => {
      const s = secrets.get(key(id))
      return s && s.owner === owner ? s : null
    }
    switch (path) {
      case routes.usersMe:
        return json(200, { user: userOf(owner), identity_token: null })
      case routes.embeddedWalletsCreate: {
        const parsed = createEmbeddedWalletsRequestSchema.safeParse(body)
        if (!parsed.success) return json(400, invalid)
        const b = parsed.data
        if (secrets.has(key(b.entropy_id)) || (wallets.get(owner) ?? []).length > 0)
          return json(400, { code: 'WALLET_ALREADY_EXISTS', message: 'exists' })
        secrets.set(key(b.entropy_id), {
          owner,
          authShare: b.auth_share,
          recovery: b.recovery,
          imported: b.entropy_type === 'private-key',
        })
        for (const w of b.wallets) addWallet(owner, b.entropy_id, w)
        return json(200, userOf(owner))
      }
      case routes.embeddedWalletsAdd: {
        const parsed = addEmbeddedWalletRequestSchema.safeParse(body)
        if (!parsed.success) return json(400, invalid)
        if (!owned(parsed.data.entropy_id))
          return json(404, { code: 'WALLET_NOT_FOUND', message: 'x' })
        addWallet(owner, parsed.data.entropy_id, parsed.data)
        return json(200, userOf(owner))
      }
      case routes.embeddedWalletsAuthShare: {
        const parsed = entropyRequestSchema.safeParse(body)
        if (!parsed.success) return json(400, invalid)
        const s = owned(parsed.data.entropy_id)
        if (!s) return json(404, { code: 'WALLET_NOT_FOUND', message: 'x' })
        return json(200, { entropy_id: parsed.data.entropy_id, auth_share: s.authShare })
      }
      case routes.embeddedWalletsRecovery: {
        const parsed = entropyRequestSchema.safeParse(body)
        if (!parsed.success) return json(400, invalid)
        const s = owned(parsed.data.entropy_id)
        if (!s) return json(404, { code: 'WALLET_NOT_FOUND', message: 'x' })
        return json(200, { entropy_id: parsed.data.entropy_id, recovery: s.recovery })
      }
      case routes.embeddedWalletsSetRecovery: {
        const parsed = setRecoveryRequestSchema.safeParse(body)
        if (!parsed.success) return json(400, invalid)
        const s = owned(parsed.data.entropy_id)
        if (!s) return json(404, { code: 'WALLET_NOT_FOUND', message: 'x' })
        s.recovery = parsed.data.recovery
        for (const w of wallets.get(owner) ?? [])
          if (w.type === 'wallet' && key(w.entropy_id) === key(parsed.data.entropy_id))
            w.recovery_method = s.recovery.method
        return json(200, userOf(owner))
      }
      default:
        return json(404, { code: 'NOT_FOUND', message: 'x' })
    }
  }

  return {
    fetch,
    secrets,
    calls,
    failNext(path: string, failure: { status: number; body: unknown } | 'network') {
      failures.set(path, failure)
    },
  }
}
