// @vitest-environment node
import { type FakeGoogle, startFakeGoogle } from '@latchkey/server/test/fakes'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateRecoveryKey } from '../recovery.ts'
import { GOOGLE_CLIENT, googleAccessToken, nodeFetch } from './fakes.test-helper.ts'
import { CloudKeyStoreError, createGoogleDriveKeyStore } from './index.ts'

const APP_ID = 'abcdefghijklmnopqrstuvwxy'
const ENTROPY_ID = '0x1111111111111111111111111111111111111111'
const KEY_ID = 'AAAAAAAAAAAAAAAAAAAAAA'

let google: FakeGoogle
beforeAll(async () => {
  google = await startFakeGoogle({ clients: [GOOGLE_CLIENT] })
})
afterAll(() => google.close())

async function drive(account = 'alice@example.com') {
  const accessToken = await googleAccessToken(google, account)
  return createGoogleDriveKeyStore({ apiBaseUrl: google.apiBaseUrl, accessToken, fetch: nodeFetch })
}

async function reason(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(CloudKeyStoreError)
  return (error as CloudKeyStoreError).reason
}

describe('Google Drive key store', () => {
  it('stores the key in appDataFolder under its name and reads it back', async () => {
    const store = await drive()
    const key = generateRecoveryKey()
    await store.putRecoveryKey({ appId: APP_ID, entropyId: ENTROPY_ID, keyId: KEY_ID, key })

    const file = google
      .files('alice@example.com')
      .find((f) => f.name === `latchkey-recovery-${APP_ID}-${KEY_ID}.json`)
    expect(JSON.parse(file?.content ?? '{}')).toEqual({
      version: 1,
      app_id: APP_ID,
      entropy_id: ENTROPY_ID,
      key_id: KEY_ID,
      recovery_key: Buffer.from(key).toString('base64url'),
    })
    // A later session (another token of the same account) finds it.
    const again = await (await drive()).getRecoveryKey({ appId: APP_ID, keyId: KEY_ID })
    expect(again).toEqual(key)
  })

  it('keeps backups apart by key id', async () => {
    const store = await drive()
    const first = generateRecoveryKey()
    const second = generateRecoveryKey()
    const base = { appId: APP_ID, entropyId: ENTROPY_ID }
    await store.putRecoveryKey({ ...base, keyId: 'first-key-id-000000000a', key: first })
    await store.putRecoveryKey({ ...base, keyId: 'second-key-id-00000000b', key: second })
    expect(await store.getRecoveryKey({ appId: APP_ID, keyId: 'first-key-id-000000000a' })).toEqual(
      first,
    )
  })

  it('another account does not see the key: not-found', async () => {
    const alice = await drive('alice@example.com')
    await alice.putRecoveryKey({
      appId: APP_ID,
      entropyId: ENTROPY_ID,
      keyId: 'alice-only-key-id-00000',
      key: generateRecoveryKey(),
    })
    const bob = await drive('bob@example.com')
    expect(
      await reason(bob.getRecoveryKey({ appId: APP_ID, keyId: 'alice-only-key-id-00000' })),
    ).toBe('not-found')
  })

  it('a bad token is unauthorized, an unreachable API is a network error', async () => {
    const bad = createGoogleDriveKeyStore({
      apiBaseUrl: google.apiBaseUrl,
      accessToken: 'ya29.not-a-token',
      fetch: nodeFetch,
    })
    expect(await reason(bad.getRecoveryKey({ appId: APP_ID, keyId: KEY_ID }))).toBe('unauthorized')
    const put = bad.putRecoveryKey({
      appId: APP_ID,
      entropyId: ENTROPY_ID,
      keyId: KEY_ID,
      key: generateRecoveryKey(),
    })
    expect(await reason(put)).toBe('unauthorized')

    const down = createGoogleDriveKeyStore({
      apiBaseUrl: 'http://127.0.0.1:9',
      accessToken: 'x',
      fetch: nodeFetch,
    })
    expect(await reason(down.getRecoveryKey({ appId: APP_ID, keyId: KEY_ID }))).toBe('network')
  })

  it('error messages never carry the token', async () => {
    const accessToken = 'ya29.secret-looking-token'
    const store = createGoogleDriveKeyStore({
      apiBaseUrl: google.apiBaseUrl,
      accessToken,
      fetch: nodeFetch,
    })
    const error = await store.getRecoveryKey({ appId: APP_ID, keyId: KEY_ID }).catch((e) => e)
    expect(String(error.message)).not.toContain(accessToken)
    expect(error.message).toMatch(/401/)
  })
})
