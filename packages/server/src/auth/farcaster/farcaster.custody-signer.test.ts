import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FarcasterTestInstance, getFarcasterTestInstance } from './farcaster.fixture.ts'

/*
 * Security bar 21: the signer of a SIWF message is the fid's custody address
 * as the IdRegistry (a real contract on Anvil, chain id 10) records it.
 */

let t: FarcasterTestInstance
beforeAll(async () => {
  t = await getFarcasterTestInstance()
})
afterAll(() => t?.close())

const failed = (reason: string) => ({
  status: 400,
  body: { code: 'AUTHENTICATION_FAILED', details: { reason } },
})

describe('farcaster custody signer', () => {
  it("refuses a message for someone else's fid signed by the attacker's own key", async () => {
    const victim = await t.newFarcasterUser()
    const attacker = await t.newFarcasterUser()
    // The attacker's key, a message naming the attacker's address and the victim's fid.
    const body = await t.proof({ account: attacker.account, fid: victim.fid })
    expect(await t.authenticate(body)).toMatchObject(failed('signer_not_custody'))
  })

  it('refuses a message naming the custody address but signed by another key', async () => {
    const victim = await t.newFarcasterUser()
    const forger = privateKeyToAccount(generatePrivateKey())
    const body = await t.proof(
      { account: forger, fid: victim.fid },
      { address: victim.account.address },
    )
    expect(await t.authenticate(body)).toMatchObject(failed('invalid_signature'))
  })

  it('refuses an fid the registry does not know', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey())
    const body = await t.proof({ account: stranger, fid: 9_999_999 })
    expect(await t.authenticate(body)).toMatchObject(failed('unknown_fid'))
  })

  it("refuses a contract custody address's proof signed by a key it does not accept", async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const wallet = await t.chain.deployContractWallet(owner.address)
    const fid = await t.chain.register(wallet)
    const intruder = privateKeyToAccount(generatePrivateKey())
    const body = await t.proof({ account: intruder, fid }, { address: wallet })
    expect(await t.authenticate(body)).toMatchObject(failed('invalid_signature'))
  })

  // Stops Anvil: keep this test last.
  it('answers FARCASTER_RELAY_ERROR when the registry cannot be read', async () => {
    const body = await t.proof(await t.newFarcasterUser())
    await t.chain.anvil.stop()
    expect(await t.authenticate(body)).toMatchObject({
      status: 424,
      body: { code: 'FARCASTER_RELAY_ERROR', details: { reason: 'registry_unavailable' } },
    })
  })
})
