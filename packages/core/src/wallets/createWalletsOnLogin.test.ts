import { describe, expect, it } from 'vitest'
import { wireUser } from '../test/fake-server.ts'
import { toUser } from '../user.ts'
import { chainsToCreateOnLogin } from './createWalletsOnLogin.ts'

const wallet = (chain: 'ethereum' | 'solana') => ({
  type: 'wallet' as const,
  address:
    chain === 'ethereum'
      ? '0x1111111111111111111111111111111111111111'
      : '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
  chain_type: chain,
  wallet_index: 0,
  wallet_client_type: 'latchkey' as const,
  connector_type: 'embedded' as const,
  imported: false,
  delegated: false,
  recovery_method: 'latchkey' as const,
  entropy_id: '0x1111111111111111111111111111111111111111',
  verified_at: 1,
  first_verified_at: 1,
  latest_verified_at: 1,
})
const user = (...wallets: ReturnType<typeof wallet>[]) => {
  const base = wireUser()
  return toUser({ ...base, linked_accounts: [...base.linked_accounts, ...wallets] })
}

describe('chainsToCreateOnLogin (spec 01 §3 createOnLogin)', () => {
  it('is off by default', () => {
    expect(chainsToCreateOnLogin(user(), { ethereum: 'off', solana: 'off' })).toEqual([])
  })
  it('creates Ethereum then Solana for a user without wallets', () => {
    expect(
      chainsToCreateOnLogin(user(), { ethereum: 'all-users', solana: 'users-without-wallets' }),
    ).toEqual(['ethereum', 'solana'])
  })
  it('creates only the missing chain for a returning user', () => {
    expect(
      chainsToCreateOnLogin(user(wallet('ethereum')), {
        ethereum: 'all-users',
        solana: 'all-users',
      }),
    ).toEqual(['solana'])
    expect(
      chainsToCreateOnLogin(user(wallet('ethereum'), wallet('solana')), {
        ethereum: 'all-users',
        solana: 'all-users',
      }),
    ).toEqual([])
  })
  it("'users-without-wallets' counts an external wallet on the chain; 'all-users' does not", () => {
    const external = {
      type: 'wallet' as const,
      address: '0x2222222222222222222222222222222222222222',
      chain_type: 'ethereum' as const,
      chain_id: 'eip155:1',
      wallet_index: null,
      wallet_client_type: 'metamask',
      connector_type: 'injected' as const,
      imported: false as const,
      delegated: false as const,
      verified_at: 1,
      first_verified_at: 1,
      latest_verified_at: 1,
    }
    const base = wireUser()
    const siweUser = toUser({ ...base, linked_accounts: [...base.linked_accounts, external] })
    expect(
      chainsToCreateOnLogin(siweUser, {
        ethereum: 'users-without-wallets',
        solana: 'users-without-wallets',
      }),
    ).toEqual(['solana'])
    expect(chainsToCreateOnLogin(siweUser, { ethereum: 'all-users', solana: 'off' })).toEqual([
      'ethereum',
    ])
  })
  it('includes guests: a guest is an authenticated user (spec 02)', () => {
    const guest = toUser({ ...wireUser(), linked_accounts: [], is_guest: true })
    for (const setting of ['all-users', 'users-without-wallets'] as const)
      expect(chainsToCreateOnLogin(guest, { ethereum: setting, solana: setting })).toEqual([
        'ethereum',
        'solana',
      ])
  })
})
