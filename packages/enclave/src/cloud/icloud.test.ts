// @vitest-environment node
import { type FakeCloudKit, startFakeCloudKit } from '@latchkey/server/test/fakes'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateRecoveryKey } from '../recovery.ts'
import { ICLOUD, nodeFetch } from './fakes.test-helper.ts'
import { CloudKeyStoreError, createICloudKeyStore } from './index.ts'

const APP_ID = 'abcdefghijklmnopqrstuvwxy'
const ENTROPY_ID = '0x1111111111111111111111111111111111111111'
const KEY_ID = 'AAAAAAAAAAAAAAAAAAAAAA'

let ck: FakeCloudKit
beforeAll(async () => {
  ck = await startFakeCloudKit(ICLOUD)
})
afterAll(() => ck.close())

function icloud(account = 'alice@icloud.com', apiToken = ICLOUD.apiToken) {
  return createICloudKeyStore({
    apiBaseUrl: ck.apiBaseUrl,
    containerId: ICLOUD.containerId,
    environment: ICLOUD.environment,
    apiToken,
    webAuthToken: ck.issueWebAuthToken(account),
    fetch: nodeFetch,
  })
}

async function reason(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(CloudKeyStoreError)
  return (error as CloudKeyStoreError).reason
}

describe('iCloud key store', () => {
  it('creates a LatchkeyRecoveryKey record in the private database and reads it back', async () => {
    const key = generateRecoveryKey()
    await icloud().putRecoveryKey({ appId: APP_ID, entropyId: ENTROPY_ID, keyId: KEY_ID, key })
    expect(ck.records('alice@icloud.com')).toContainEqual({
      recordName: `latchkey-recovery-${APP_ID}-${KEY_ID}`,
      recordType: 'LatchkeyRecoveryKey',
      fields: {
        recoveryKey: { value: Buffer.from(key).toString('base64url') },
        entropyId: { value: ENTROPY_ID },
        appId: { value: APP_ID },
      },
    })
    expect(await icloud().getRecoveryKey({ appId: APP_ID, keyId: KEY_ID })).toEqual(key)
  })

  it('never overwrites a key: a second create under the same key id is rejected (EXISTS)', async () => {
    const params = { appId: APP_ID, entropyId: ENTROPY_ID, keyId: 'same-key-id-0000000000' }
    await icloud().putRecoveryKey({ ...params, key: generateRecoveryKey() })
    const error = await icloud()
      .putRecoveryKey({ ...params, key: generateRecoveryKey() })
      .catch((e: CloudKeyStoreError) => e)
    expect(error).toMatchObject({ reason: 'rejected', message: expect.stringContaining('EXISTS') })
  })

  it('another account gets NOT_FOUND: not-found', async () => {
    await icloud('alice@icloud.com').putRecoveryKey({
      appId: APP_ID,
      entropyId: ENTROPY_ID,
      keyId: 'alice-only-key-id-00000',
      key: generateRecoveryKey(),
    })
    const lookup = icloud('bob@icloud.com').getRecoveryKey({
      appId: APP_ID,
      keyId: 'alice-only-key-id-00000',
    })
    expect(await reason(lookup)).toBe('not-found')
  })

  it('a wrong API token (401) and a bad web auth token (421) are unauthorized', async () => {
    const wrongApi = icloud('alice@icloud.com', 'not-the-api-token')
    expect(await reason(wrongApi.getRecoveryKey({ appId: APP_ID, keyId: KEY_ID }))).toBe(
      'unauthorized',
    )
    const signedOut = createICloudKeyStore({
      apiBaseUrl: ck.apiBaseUrl,
      containerId: ICLOUD.containerId,
      environment: ICLOUD.environment,
      apiToken: ICLOUD.apiToken,
      webAuthToken: 'expired',
      fetch: nodeFetch,
    })
    const error = (await signedOut
      .getRecoveryKey({ appId: APP_ID, keyId: KEY_ID })
      .catch((e: unknown) => e)) as CloudKeyStoreError
    expect(error).toMatchObject({ reason: 'unauthorized', status: 421 })
    expect(error.message).toContain('AUTHENTICATION_REQUIRED')
  })

  it('an unreachable API is a network error', async () => {
    const down = createICloudKeyStore({
      apiBaseUrl: 'http://127.0.0.1:9',
      containerId: ICLOUD.containerId,
      environment: ICLOUD.environment,
      apiToken: ICLOUD.apiToken,
      webAuthToken: 'x',
      fetch: nodeFetch,
    })
    expect(await reason(down.getRecoveryKey({ appId: APP_ID, keyId: KEY_ID }))).toBe('network')
  })
})
