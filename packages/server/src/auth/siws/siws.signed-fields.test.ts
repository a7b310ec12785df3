import { base64 } from '@scure/base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../../test/instance.ts'
import { failureReason, WALLET_APP_SETTINGS } from '../siwe/testing.ts'
import {
  postSiws,
  type SignInMessageFields,
  signInText,
  siwsInit,
  siwsSignIn,
  solanaKeypair,
} from './testing.ts'

// Security bar 20 (SIWS): an Ed25519 signature over the returned signed
// message, and every field of that message equal to the server's sign-in
// input for the nonce.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: WALLET_APP_SETTINGS })
})
afterAll(() => t.close())

const mismatches: Array<[string, Partial<SignInMessageFields>, string]> = [
  ['domain', { domain: 'evil.test' }, 'signed_field_mismatch'],
  ['statement', { statement: 'Sign in to Evil App' }, 'signed_field_mismatch'],
  ['statement', { statement: undefined }, 'signed_field_mismatch'],
  ['uri', { uri: 'http://evil.test' }, 'signed_field_mismatch'],
  ['version', { version: '2' }, 'signed_field_mismatch'],
  ['chain_id', { chainId: 'devnet' }, 'signed_field_mismatch'],
  ['issued_at', { issuedAt: '2029-12-31T23:59:00.000Z' }, 'signed_field_mismatch'],
  ['expiration_time', { expirationTime: '2031-01-01T00:00:00.000Z' }, 'signed_field_mismatch'],
  ['expiration_time', { expirationTime: undefined }, 'signed_field_mismatch'],
  ['notBefore', { notBefore: '2030-01-01T00:00:00.000Z' }, 'signed_field_mismatch'],
  ['requestId', { requestId: 'r1' }, 'signed_field_mismatch'],
  ['resources', { resources: ['https://evil.test'] }, 'signed_field_mismatch'],
  // The nonce is bound to its address: another nonce or address is unknown.
  ['nonce', { nonce: 'ffffffffffffffffffffffffffffffff' }, 'nonce_unknown'],
  ['address', { address: solanaKeypair().address }, 'nonce_unknown'],
]

describe('SIWS signed fields', () => {
  it.each(mismatches)(
    'refuses a message whose %s differs from the input (%o)',
    async (field, fields, reason) => {
      const res = await siwsSignIn(t, solanaKeypair(), { fields })
      expect(res).toMatchObject({ status: 400, body: { code: 'WALLET_LOGIN_FAILED' } })
      expect(failureReason(res)).toBe(reason)
      if (reason === 'signed_field_mismatch') expect(res.body.details.field).toBe(field)
    },
  )

  it('accepts the exact input, and nothing was spent by the refusals', async () => {
    const keypair = solanaKeypair()
    const input = await siwsInit(t, keypair.address)
    const bad = signInText(input, { domain: 'evil.test' })
    const refused = await postSiws(t, {
      message: bad,
      signature: base64.encode(keypair.sign(new TextEncoder().encode(bad))),
    })
    expect(failureReason(refused)).toBe('signed_field_mismatch')
    const message = signInText(input)
    const res = await postSiws(t, {
      message,
      signature: base64.encode(keypair.sign(new TextEncoder().encode(message))),
    })
    expect(res.status).toBe(200)
  })

  it('refuses a signature by another key, over other bytes, or malformed', async () => {
    const keypair = solanaKeypair()
    const input = await siwsInit(t, keypair.address)
    const message = signInText(input)
    const bytes = new TextEncoder().encode(message)
    const cases: Array<[string, string]> = [
      [base64.encode(solanaKeypair().sign(bytes)), 'invalid_signature'],
      [base64.encode(keypair.sign(new TextEncoder().encode(`${message} `))), 'invalid_signature'],
      [base64.encode(keypair.sign(bytes).slice(0, 63)).padEnd(64, 'A'), 'malformed_signature'],
      ['!'.repeat(88), 'malformed_signature'],
    ]
    for (const [signature, reason] of cases)
      expect(failureReason(await postSiws(t, { message, signature }))).toBe(reason)
  })

  it('refuses text that is not a sign-in message', async () => {
    const keypair = solanaKeypair()
    const message = 'Please sign this to log in'
    const signature = base64.encode(keypair.sign(new TextEncoder().encode(message)))
    expect(failureReason(await postSiws(t, { message, signature }))).toBe('malformed_message')
  })

  it('refuses a nonce issued to another of the app’s origins', async () => {
    const other = 'http://other.test'
    const app = await t.createApp(WALLET_APP_SETTINGS, [TEST_ORIGIN, other])
    const keypair = solanaKeypair()
    const input = await siwsInit(t, keypair.address, { appId: app.id, origin: other })
    expect(input).toMatchObject({ domain: 'other.test', uri: other })
    const message = signInText(input)
    const signature = base64.encode(keypair.sign(new TextEncoder().encode(message)))
    const res = await postSiws(t, { message, signature }, { appId: app.id })
    expect(failureReason(res)).toBe('origin_mismatch')
    const own = await postSiws(t, { message, signature }, { appId: app.id, origin: other })
    expect(own.status).toBe(200)
  })
})
