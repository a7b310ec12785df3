import { describe, expect, it } from 'vitest'
import { base64urlToBytes } from '../encoding.ts'
import {
  createDelegationKeyPair,
  openDelegatedShare,
  setupDelegation,
} from './fake-delegation.test-helper.ts'
import { APP_ID } from './harness.test-helper.ts'
import { rebuildWalletKeys } from './wallet-keys.ts'

// Security property (docs/delegated-actions.md "How the enclave seals the share"):
// the device share leaves the enclave only sealed to the server's delegation
// key, bound to app, user and address; the host page gets `{ user }` only.
// `openDelegatedShare` opens it with the server's steps (the format's proof).

const alice = 'user-alice'
const bob = 'user-bob'

describe('the delegated device share leaves the enclave only sealed', () => {
  it('the server key opens it to the device share, which with the auth share rebuilds the wallet', async () => {
    const t = await setupDelegation()
    const [wallet] = await t.create(alice)
    const answer = await t.delegate(alice, wallet.address, 'ethereum')
    expect(answer.event).toBe('latchkey:delegate:result')
    // The host page receives the user, and nothing else.
    expect(Object.keys(answer.data as object)).toEqual(['user'])
    const { user } = answer.data as {
      user: { linked_accounts: { address: string; delegated: boolean }[] }
    }
    expect(user.linked_accounts.find((w) => w.address === wallet.address)?.delegated).toBe(true)

    const [call] = t.posted()
    expect(call?.proof).not.toBeNull()
    expect(call?.body).toEqual({
      address: wallet.address,
      chain_type: 'ethereum',
      key_id: t.key.keyId,
      ephemeral_public_key: expect.any(String),
      iv: expect.any(String),
      ciphertext: expect.any(String),
    })
    const opened = t.delegation.opened.get(wallet.address) as Uint8Array
    const stored = await t.h.store.get(APP_ID, wallet.entropy_id)
    expect(opened).toEqual(stored?.deviceShare)
    const authShare = base64urlToBytes(
      t.server.secrets.get(wallet.entropy_id.toLowerCase())?.authShare ?? '',
    )
    const keys = await rebuildWalletKeys(opened, authShare, wallet.entropy_id)
    expect(keys.address('ethereum', 0)).toBe(wallet.address)
    keys.wipe()
    // Not in the request in the clear, in any usual spelling.
    const body = JSON.stringify(call?.body)
    for (const encoding of ['base64url', 'base64', 'hex'] as const)
      expect(body).not.toContain(Buffer.from(opened).toString(encoding))
  })

  it('opens only for the app, user, address and server key it was sealed for', async () => {
    const t = await setupDelegation()
    const [wallet] = await t.create(alice)
    await t.delegate(alice, wallet.address, 'ethereum')
    const body = t.posted()[0]?.body as Parameters<typeof openDelegatedShare>[2]
    const context = { appId: APP_ID, userId: alice }
    await expect(openDelegatedShare(t.key, context, body)).resolves.toBeInstanceOf(Uint8Array)
    await expect(openDelegatedShare(t.key, { ...context, userId: bob }, body)).rejects.toThrow()
    await expect(
      openDelegatedShare(t.key, { ...context, appId: 'zzzzzzzzzzzzzzzzzzzzzzzzz' }, body),
    ).rejects.toThrow()
    const otherAddress = `0x${'22'.repeat(20)}`
    await expect(
      openDelegatedShare(t.key, context, { ...body, address: otherAddress }),
    ).rejects.toThrow()
    await expect(
      openDelegatedShare(await createDelegationKeyPair(), context, body),
    ).rejects.toThrow()
  })

  it('each delegation seals afresh: a new ephemeral key and nonce every time', async () => {
    const t = await setupDelegation()
    const [wallet] = await t.create(alice)
    await t.delegate(alice, wallet.address, 'ethereum')
    await t.delegate(alice, wallet.address, 'ethereum')
    const [a, b] = t.posted().map((c) => c.body as Record<string, string>)
    expect(a?.ephemeral_public_key).not.toBe(b?.ephemeral_public_key)
    expect(a?.iv).not.toBe(b?.iv)
    expect(a?.ciphertext).not.toBe(b?.ciphertext)
  })
})
