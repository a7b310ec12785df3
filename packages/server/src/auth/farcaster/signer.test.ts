import { getAddress, type Hex, verifyTypedData } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  APP_FID,
  getSignerTestInstance,
  newSignerKey,
  type SignerTestInstance,
} from './signer.fixture.ts'
import { SIGNED_KEY_REQUEST_DOMAIN, SIGNED_KEY_REQUEST_TYPES } from './signer-api.ts'

/*
 * Farcaster signer (spec 03 §7; docs/farcaster-signer.md): init signs a
 * SignedKeyRequest with the app's custody key and posts it to Farcaster's
 * API; status follows the request to approved or revoked.
 */

let t: SignerTestInstance
beforeAll(async () => {
  t = await getSignerTestInstance()
}, 60_000)
afterAll(() => t?.close())

describe('farcaster signer init', () => {
  it('without credentials the app gets a clear error and nothing is posted', async () => {
    const user = await t.farcasterUser('unconfigured@example.com')
    const res = await t.init(user.token, newSignerKey())
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({
      code: 'FARCASTER_SIGNER_NOT_CONFIGURED',
      message: 'Farcaster signers are not set up for this app',
    })
    expect(t.api.requests).toHaveLength(0)
  })

  it('signs a valid SignedKeyRequest with the requesting fid’s custody key', async () => {
    await t.configure()
    const user = await t.farcasterUser('init@example.com')
    const key = newSignerKey()
    const res = await t.init(user.token, key)
    expect(res.status).toBe(200)
    const posted = t.api.byKey(key)
    expect(posted).toBeDefined()
    expect(res.body).toEqual({
      public_key: key,
      status: 'pending_approval',
      signer_approval_url: posted?.deeplinkUrl,
      fid: null,
    })
    expect(posted?.requestFid).toBe(APP_FID)
    // The deadline is a day after the server's clock.
    expect(posted?.deadline).toBe(Math.floor(t.clock.now() / 1000) + 86_400)
    // Verified here too, independently of the fake.
    const valid = await verifyTypedData({
      address: getAddress(t.appCustody.address),
      domain: SIGNED_KEY_REQUEST_DOMAIN,
      types: SIGNED_KEY_REQUEST_TYPES,
      primaryType: 'SignedKeyRequest',
      message: { requestFid: BigInt(APP_FID), key, deadline: BigInt(posted?.deadline ?? 0) },
      signature: posted?.signature as Hex,
    })
    expect(valid).toBe(true)
    // A second init of the same pending key reuses the request.
    const again = await t.init(user.token, key)
    expect(again.body).toEqual(res.body)
    expect(t.api.requests.filter((r) => r.key === key)).toHaveLength(1)
  })

  it('a custody mnemonic signs as its first account', async () => {
    const mnemonic = 'test test test test test test test test test test test junk'
    const account = mnemonicToAccount(mnemonic)
    t.api.setCustody(APP_FID, account.address)
    try {
      await t.configure(mnemonic)
      const user = await t.farcasterUser('mnemonic@example.com')
      const key = newSignerKey()
      const res = await t.init(user.token, key)
      expect(res.status).toBe(200)
      expect(t.api.byKey(key)?.requestFid).toBe(APP_FID)
    } finally {
      t.api.setCustody(APP_FID, t.appCustody.address)
      await t.configure()
    }
  })

  it('a custody key that is not the fid’s is refused by Farcaster: 424, no request', async () => {
    await t.configure(`0x${'11'.repeat(32)}`)
    try {
      const user = await t.farcasterUser('wrongcustody@example.com')
      const key = newSignerKey()
      const res = await t.init(user.token, key)
      expect(res.status).toBe(424)
      expect(res.body).toMatchObject({ code: 'FARCASTER_RELAY_ERROR' })
      expect(t.api.refused.at(-1)?.reason).toBe('signature is not the requestFid custody address')
      expect(t.api.byKey(key)).toBeUndefined()
    } finally {
      await t.configure()
    }
  })

  it('the custody key is sealed at rest', async () => {
    const row = await t.db
      .selectFrom('app_provider_credentials')
      .selectAll()
      .where('provider', '=', 'farcaster-signer')
      .executeTakeFirstOrThrow()
    expect(row.client_id).toBe(String(APP_FID))
    expect(row.client_secret).not.toContain(t.appCustodyKey.slice(2, 20))
  })

  it('a user without a Farcaster account gets Connect failed', async () => {
    const session = await t.login('nofarcaster@example.com', { enclaveKey: t.enclaveKey })
    const res = await t.init(session.token ?? '', newSignerKey())
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      code: 'FARCASTER_SIGNER_CONNECT_FAILED',
      message: 'Connect failed',
      details: { reason: 'no_farcaster_account' },
    })
  })

  it('init is an enclave route: the access token alone is refused', async () => {
    const user = await t.farcasterUser('noproof@example.com')
    const before = t.api.requests.length
    const res = await t.init(user.token, newSignerKey(), { proof: null })
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('ENCLAVE_PROOF_INVALID')
    expect(t.api.requests).toHaveLength(before)
  })

  it('a malformed key is refused before anything is signed', async () => {
    const user = await t.farcasterUser('badkey@example.com')
    const res = await t.init(user.token, '0x1234' as Hex)
    expect(res.status).toBe(400)
  })
})

describe('farcaster signer status', () => {
  it('pending, then approved with the user’s fid, recorded on the Farcaster account', async () => {
    await t.configure()
    const user = await t.farcasterUser('approve@example.com')
    const key = newSignerKey()
    await t.init(user.token, key)
    const pending = await t.status(user.token, key)
    expect(pending.body).toMatchObject({ status: 'pending_approval', fid: null })
    t.api.approve(t.api.byKey(key)?.token ?? '', user.fid)
    const approved = await t.status(user.token, key)
    expect(approved.status).toBe(200)
    expect(approved.body).toEqual({
      public_key: key,
      status: 'approved',
      signer_approval_url: null,
      fid: user.fid,
    })
    const me = await t.request('/api/v1/users/me', { token: user.token })
    const farcaster = me.body.user.linked_accounts.find(
      (a: { type: string }) => a.type === 'farcaster',
    )
    expect(farcaster.signer_public_key).toBe(key)
    // Approved is final: init answers it without a new request.
    const count = t.api.requests.length
    expect((await t.init(user.token, key)).body.status).toBe('approved')
    expect(t.api.requests).toHaveLength(count)
  })

  it('revoked', async () => {
    const user = await t.farcasterUser('revoke@example.com')
    const key = newSignerKey()
    await t.init(user.token, key)
    t.api.revoke(t.api.byKey(key)?.token ?? '')
    const res = await t.status(user.token, key)
    expect(res.body).toMatchObject({ status: 'revoked', signer_approval_url: null })
  })

  it("another user's key is refused: its status is not readable and its init is refused", async () => {
    const owner = await t.farcasterUser('owner@example.com')
    const other = await t.farcasterUser('other@example.com')
    const key = newSignerKey()
    await t.init(owner.token, key)
    const read = await t.status(other.token, key)
    expect(read.status).toBe(404)
    expect(read.body.code).toBe('FARCASTER_SIGNER_NOT_FOUND')
    expect(JSON.stringify(read.body)).not.toContain('farcaster://')
    const taken = await t.init(other.token, key)
    expect(taken.status).toBe(400)
    expect(taken.body).toMatchObject({ code: 'FARCASTER_SIGNER_CONNECT_FAILED' })
    expect((await t.status(owner.token, key)).body.status).toBe('pending_approval')
  })

  it('a key never initialised is not found; the Farcaster API down is a 424', async () => {
    const user = await t.farcasterUser('down@example.com')
    expect((await t.status(user.token, newSignerKey())).status).toBe(404)
    const key = newSignerKey()
    await t.init(user.token, key)
    t.api.setAvailable(false)
    try {
      const res = await t.status(user.token, key)
      expect(res.status).toBe(424)
      expect(res.body).toMatchObject({
        code: 'FARCASTER_RELAY_ERROR',
        details: { reason: 'api_unavailable' },
      })
    } finally {
      t.api.setAvailable(true)
    }
  })
})
