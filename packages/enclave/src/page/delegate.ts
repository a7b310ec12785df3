import type { enclaveRequestSchemas, UserWire } from '@latchkey/protocol/schemas'
import type { z } from 'zod'
import type { ServerApi } from './api.ts'
import { sealDelegatedShare } from './delegation-seal.ts'
import { PageError } from './errors.ts'
import type { DeviceShareStore } from './store.ts'

type Payload<E extends keyof typeof enclaveRequestSchemas> = z.output<
  (typeof enclaveRequestSchemas)[E]
>

export interface DelegateHandlerDeps {
  appId: string
  api: ServerApi
  store: DeviceShareStore
  /** Default: globalThis.crypto.subtle. */
  subtle?: SubtleCrypto
}

export interface DelegateHandlers {
  'latchkey:delegate'(data: Payload<'latchkey:delegate'>): Promise<{ user: UserWire }>
}

/** Ethereum addresses compare without case (EIP-55 is a checksum only); base58 compares exactly. */
const sameAddress = (chain: 'ethereum' | 'solana', a: string, b: string) =>
  chain === 'ethereum' ? a.toLowerCase() === b.toLowerCase() : a === b

/**
 * The user's own embedded wallet at `address` on `chain`, as the server
 * lists it; spec 03 §5: anything else is 'Address to delegate is not
 * associated with current user.' (an external wallet has no share here).
 */
function ownEmbeddedWallet(user: UserWire, chain: 'ethereum' | 'solana', address: string) {
  for (const account of user.linked_accounts)
    if (
      account.type === 'wallet' &&
      account.connector_type === 'embedded' &&
      account.chain_type === chain &&
      sameAddress(chain, account.address, address)
    )
      return account
  throw new PageError('DELEGATION_ADDRESS_NOT_OWNED')
}

/**
 * The enclave's delegated-actions handler (merged into `createHandlers`;
 * spec 03 §2 "Delegated actions", docs/delegated-actions.md).
 *
 * `latchkey:delegate` `{ access_token, address, chain_type }`: reads the
 * session's user (a proof-bound call), checks the address is one of the
 * user's own embedded wallets on that chain (else
 * DELEGATION_ADDRESS_NOT_OWNED), reads the server's delegation key, seals
 * this device's share of the wallet's secret to it (delegation-seal.ts) and
 * posts it to the delegate route with the page's proof. That route wants a
 * fresh MFA verification when the user has MFA: its MFA_REQUIRED reaches the
 * host as is, and the host verifies and asks again (core `withMfa`). The
 * device share leaves this page only sealed, and only to the server's key;
 * the host gets `{ user }`.
 *
 * @example
 * const handlers = { ...createDelegateHandlers({ appId, api, store }) }
 * const { user } = await handlers['latchkey:delegate']({ access_token, address, chain_type: 'ethereum' })
 */
export function createDelegateHandlers(deps: DelegateHandlerDeps): DelegateHandlers {
  const { appId, api, store } = deps
  return {
    async 'latchkey:delegate'(data) {
      const user = await api.me(data.access_token)
      const wallet = ownEmbeddedWallet(user, data.chain_type, data.address)
      const key = await api.delegationKey()
      const record = await store.get(appId, wallet.entropy_id)
      if (!record)
        throw new PageError(
          'WALLET_NOT_FOUND',
          'This wallet must be recovered on this device first',
        )
      try {
        const sealed = await sealDelegatedShare({
          appId,
          userId: user.id,
          // The server's spelling: the seal binds the address exactly as the request sends it.
          address: wallet.address,
          deviceShare: record.deviceShare,
          serverPublicKey: key.public_key,
          subtle: deps.subtle,
        })
        const updated = await api.delegate(data.access_token, {
          address: wallet.address,
          chain_type: wallet.chain_type,
          key_id: key.key_id,
          ...sealed,
        })
        return { user: updated }
      } finally {
        record.deviceShare.fill(0)
      }
    },
  }
}
