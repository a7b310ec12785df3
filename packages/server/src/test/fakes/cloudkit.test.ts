import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeCloudKit, startFakeCloudKit } from './index.ts'

const CONTAINER = 'iCloud.com.example.app'
const API_TOKEN = 'api-token-1'

let ck: FakeCloudKit
beforeAll(async () => {
  ck = await startFakeCloudKit({
    containerId: CONTAINER,
    apiToken: API_TOKEN,
    corsOrigins: ['http://enclave.test'],
  })
})
afterAll(() => ck.close())

const url = (op: string, webAuthToken?: string, apiToken = API_TOKEN) => {
  const q = new URLSearchParams({ ckAPIToken: apiToken })
  if (webAuthToken) q.set('ckWebAuthToken', webAuthToken)
  return `${ck.apiBaseUrl}/database/1/${CONTAINER}/development/${op}?${q}`
}
const post = (op: string, body: unknown, webAuthToken?: string, apiToken?: string) =>
  fetch(url(op, webAuthToken, apiToken), {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify(body),
  })
const record = (recordName: string) => ({
  recordType: 'LatchkeyRecoveryKey',
  recordName,
  fields: { recoveryKey: { value: 'k' } },
})

describe('fake CloudKit Web Services', () => {
  it('users/caller asks for sign-in (421) and the sign-in page redirects with a web auth token', async () => {
    const res = await fetch(url('public/users/caller'))
    expect(res.status).toBe(421)
    const body = (await res.json()) as { serverErrorCode: string; redirectURL: string }
    expect(body.serverErrorCode).toBe('AUTHENTICATION_REQUIRED')

    const signIn = await (await fetch(body.redirectURL)).text()
    expect(signIn).toContain('data-account="alice@icloud.com"')
    expect(signIn).toContain('data-action="cancel"')

    ck.setSignInCallbackUrl('http://app.test/back?x=1')
    const approve = `${ck.url}/signin/approve?ckAPIToken=${API_TOKEN}&account=alice%40icloud.com`
    const redirected = await fetch(approve, { redirect: 'manual' })
    const back = new URL(redirected.headers.get('location') ?? '')
    expect(back.searchParams.get('x')).toBe('1')
    const token = back.searchParams.get('ckWebAuthToken') ?? ''
    const me = await fetch(url('public/users/caller', token))
    expect(me.status).toBe(200)
    expect(await me.json()).toMatchObject({ userRecordName: expect.stringMatching(/^_/) })
  })

  it('creates, refuses a second create with EXISTS, force-replaces and looks up', async () => {
    const alice = ck.issueWebAuthToken('alice@icloud.com')
    const created = await post(
      'private/records/modify',
      {
        operations: [{ operationType: 'create', record: record('r1') }],
      },
      alice,
    )
    expect(created.status).toBe(200)
    expect(await created.json()).toMatchObject({
      records: [{ recordName: 'r1', recordChangeTag: expect.any(String) }],
    })

    const again = await post(
      'private/records/modify',
      {
        operations: [{ operationType: 'create', record: record('r1') }],
      },
      alice,
    )
    expect(await again.json()).toMatchObject({
      records: [{ recordName: 'r1', serverErrorCode: 'EXISTS' }],
    })

    await post(
      'private/records/modify',
      {
        operations: [
          {
            operationType: 'forceReplace',
            record: { ...record('r1'), fields: { recoveryKey: { value: 'k2' } } },
          },
        ],
      },
      alice,
    )
    const found = await post(
      'private/records/lookup',
      { records: [{ recordName: 'r1' }, { recordName: 'nope' }] },
      alice,
    )
    expect(await found.json()).toMatchObject({
      records: [
        { recordName: 'r1', fields: { recoveryKey: { value: 'k2' } } },
        { recordName: 'nope', serverErrorCode: 'NOT_FOUND' },
      ],
    })
    expect(ck.records('alice@icloud.com')).toContainEqual({
      recordName: 'r1',
      recordType: 'LatchkeyRecoveryKey',
      fields: { recoveryKey: { value: 'k2' } },
    })
  })

  it("keeps each account's private database to itself", async () => {
    const alice = ck.issueWebAuthToken('alice@icloud.com')
    await post(
      'private/records/modify',
      { operations: [{ operationType: 'create', record: record('mine') }] },
      alice,
    )
    const bob = ck.issueWebAuthToken('bob@icloud.com')
    const res = await post('private/records/lookup', { records: [{ recordName: 'mine' }] }, bob)
    expect(await res.json()).toMatchObject({ records: [{ serverErrorCode: 'NOT_FOUND' }] })
  })

  it('checks the API token (401) and the web auth token (421)', async () => {
    const alice = ck.issueWebAuthToken('alice@icloud.com')
    const wrongApi = await post(
      'private/records/lookup',
      { records: [{ recordName: 'x' }] },
      alice,
      'nope',
    )
    expect(wrongApi.status).toBe(401)
    expect(await wrongApi.json()).toMatchObject({ serverErrorCode: 'AUTHENTICATION_FAILED' })
    const noUser = await post('private/records/lookup', { records: [{ recordName: 'x' }] }, 'bogus')
    expect(noUser.status).toBe(421)
    expect(await noUser.json()).toMatchObject({
      serverErrorCode: 'AUTHENTICATION_REQUIRED',
      redirectURL: expect.any(String),
    })
  })

  it('allows the configured origins', async () => {
    const res = await fetch(url('private/records/lookup'), {
      method: 'OPTIONS',
      headers: { origin: 'http://enclave.test', 'access-control-request-method': 'POST' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('http://enclave.test')
    const other = await fetch(url('private/records/lookup'), {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.test', 'access-control-request-method': 'POST' },
    })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })
})
