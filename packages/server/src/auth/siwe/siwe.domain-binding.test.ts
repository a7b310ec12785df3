import { routes } from '@latchkey/protocol'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../../test/instance.ts'
import {
  failureReason,
  postSiwe,
  siweMessage,
  siweNonce,
  siweSignIn,
  WALLET_APP_SETTINGS,
} from './testing.ts'

// Security bar 16 (EIP-4361): the message is parsed per the grammar; its
// domain and URI must be the app's origin the request comes from.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: WALLET_APP_SETTINGS })
})
afterAll(() => t.close())

const newAccount = () => privateKeyToAccount(generatePrivateKey())

describe('SIWE domain binding', () => {
  it('accepts the origin host as domain and a URI on the same origin', async () => {
    const res = await siweSignIn(t, newAccount(), { fields: { uri: `${TEST_ORIGIN}/login?x=1` } })
    expect(res.status).toBe(200)
    const withScheme = await siweSignIn(t, newAccount(), { fields: { scheme: 'http' } })
    expect(withScheme.status).toBe(200)
  })

  it('refuses a message for another domain', async () => {
    for (const domain of ['evil.test', 'app.test.evil.test', 'app.test:8080']) {
      const res = await siweSignIn(t, newAccount(), { fields: { domain } })
      expect(res.status).toBe(400)
      expect(failureReason(res)).toBe('domain_mismatch')
    }
  })

  it('refuses a scheme other than the origin’s', async () => {
    const res = await siweSignIn(t, newAccount(), { fields: { scheme: 'https' } })
    expect(failureReason(res)).toBe('domain_mismatch')
  })

  it('refuses a URI of another origin', async () => {
    for (const uri of ['https://app.test', 'http://evil.test/', 'http://app.test:8080/']) {
      const res = await siweSignIn(t, newAccount(), { fields: { uri } })
      expect(failureReason(res)).toBe('uri_mismatch')
    }
  })

  it("refuses a message for one of the app's origins sent from another", async () => {
    const other = 'http://other.test'
    const app = await t.createApp(WALLET_APP_SETTINGS, [TEST_ORIGIN, other])
    const account = newAccount()
    const nonce = await siweNonce(t, account.address, { appId: app.id })
    const message = siweMessage(t, account.address, nonce)
    const signature = await account.signMessage({ message })
    const fromOther = await postSiwe(t, { message, signature }, { appId: app.id, origin: other })
    expect(failureReason(fromOther)).toBe('domain_mismatch')
    const fromOwn = await postSiwe(t, { message, signature }, { appId: app.id })
    expect(fromOwn.status).toBe(200)
  })

  it('needs an Origin, and one of the app’s', async () => {
    const noOrigin = await siweSignIn(t, newAccount(), { origin: null })
    expect(failureReason(noOrigin)).toBe('ORIGIN_NOT_ALLOWED')
    // The server's own origin passes the app check of every route, not this one.
    const ownOrigin = await siweSignIn(t, newAccount(), {
      origin: 'http://latchkey.test',
      fields: { domain: 'latchkey.test', uri: 'http://latchkey.test' },
    })
    expect(ownOrigin).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
  })

  it('refuses what the EIP-4361 grammar does not allow', async () => {
    const account = newAccount()
    const nonce = await siweNonce(t, account.address)
    const message = siweMessage(t, account.address, nonce)
    const variants = [
      `${message}\n`,
      `${message}\nExtra: field`,
      `prefix ${message}`,
      message.replace(/\nIssued At: [^\n]+/, ''),
      message.replace('Version: 1', 'Version: 2'),
      message.replace(/^app\.test/, 'app.test/path'),
      // A second, different field block hidden after the first.
      `${message}\n\nURI: http://evil.test\nVersion: 1`,
    ]
    for (const variant of variants) {
      const signature = await account.signMessage({ message: variant })
      const res = await postSiwe(t, { message: variant, signature })
      expect(failureReason(res)).toBe('malformed_message')
    }
    // Nothing was spent: the well-formed message still logs in.
    const signature = await account.signMessage({ message })
    expect((await postSiwe(t, { message, signature })).status).toBe(200)
  })

  it('accepts a message without statement, with two blank lines (ABNF) or one', async () => {
    for (const blankLines of ['\n\n\n', '\n\n']) {
      const account = newAccount()
      const nonce = await siweNonce(t, account.address)
      const abnf = siweMessage(t, account.address, nonce, { statement: undefined })
      expect(abnf).toContain(`${account.address}\n\n\nURI:`)
      const message = abnf.replace('\n\n\nURI:', `${blankLines}URI:`)
      const signature = await account.signMessage({ message })
      expect((await postSiwe(t, { message, signature })).status).toBe(200)
    }
  })

  it('link checks the domain too', async () => {
    const login = await t.login('siwe-domain-link@example.com')
    const res = await siweSignIn(t, newAccount(), {
      path: routes.siweLink,
      token: login.token ?? '',
      fields: { domain: 'evil.test' },
    })
    expect(failureReason(res)).toBe('domain_mismatch')
  })
})
