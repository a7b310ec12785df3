// @vitest-environment node
import { routes } from '@latchkey/protocol/routes'
import { parseEnclaveRequest } from '@latchkey/protocol/schemas'
import {
  type FakeCloudKit,
  type FakeGoogle,
  startFakeCloudKit,
  startFakeGoogle,
} from '@latchkey/server/test/fakes'
import { verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GOOGLE_CLIENT, ICLOUD, nodeFetch } from '../cloud/fakes.test-helper.ts'
import { createFakeServer } from './fake-server.test-helper.ts'
import { APP_ID, createHarness, HOST } from './harness.test-helper.ts'

// Cloud-drive recovery end to end in the enclave: the handlers, the fake
// Latchkey server exchanging consents, and the fake Google / CloudKit over
// real HTTP (Node's fetch, hence the node environment).

const alice = 'user-alice'
const ALICE_GOOGLE = 'alice@example.com'
const ALICE_ICLOUD = 'alice@icloud.com'

let google: FakeGoogle
let icloud: FakeCloudKit
beforeAll(async () => {
  google = await startFakeGoogle({ clients: [GOOGLE_CLIENT] })
  icloud = await startFakeCloudKit(ICLOUD)
})
afterAll(async () => {
  await google.close()
  await icloud.close()
})

function setup() {
  const server = createFakeServer({ appId: APP_ID, cloud: { google, icloud } })
  const device = () =>
    createHarness({ fetch: server.fetch, ancestorOrigins: [HOST], cloudFetch: nodeFetch })
  return { server, device, ...device() }
}

type Setup = ReturnType<typeof setup>
type Wallet = { address: string; entropy_id: string }

async function createWallet(h: Setup, recovery: unknown) {
  const answer = await h.request('latchkey:wallets:create', {
    access_token: alice,
    chain_types: ['ethereum'],
    recovery,
  })
  return answer.message
}

async function createdEntropyId(h: Setup, recovery: unknown) {
  const message = await createWallet(h, recovery)
  expect(message.event).toBe('latchkey:wallets:create:result')
  const user = (message.data as { user: { linked_accounts: Wallet[] } }).user
  return user.linked_accounts[0]?.entropy_id as string
}

/** Signs with the wallet on `device` and checks the signature is the entropy id's. */
async function signsAs(device: ReturnType<Setup['device']>, entropyId: string) {
  const answer = await device.request('latchkey:wallets:rpc', {
    access_token: alice,
    entropy_id: entropyId,
    chain_type: 'ethereum',
    wallet_index: 0,
    request: { method: 'personal_sign', params: ['cloud', entropyId] },
  })
  const signature = (answer.message.data as { result: `0x${string}` }).result
  return verifyMessage({ address: entropyId as `0x${string}`, message: 'cloud', signature })
}

describe('cloud recovery: Google Drive', () => {
  it('backs up on create, and a fresh device recovers the same wallet', async () => {
    const h = setup()
    const entropyId = await createdEntropyId(h, {
      method: 'google-drive',
      oauth: h.server.consent('google-drive', ALICE_GOOGLE),
    })
    const material = h.server.secrets.get(entropyId.toLowerCase())?.recovery
    expect(material).toMatchObject({ method: 'google-drive', key_id: expect.any(String) })
    const keyId = (material as { key_id: string }).key_id
    expect(keyId).toMatch(/^[A-Za-z0-9_-]{22}$/)
    const file = google
      .files(ALICE_GOOGLE)
      .find((f) => f.name === `latchkey-recovery-${APP_ID}-${keyId}.json`)
    expect(JSON.parse(file?.content ?? '{}')).toMatchObject({ entropy_id: entropyId })
    // The key went to the drive only: the Latchkey server never saw it.
    const key = JSON.parse(file?.content ?? '{}').recovery_key as string
    expect(JSON.stringify(h.server.calls)).not.toContain(key)
    expect((await h.store.get(APP_ID, entropyId))?.recoveryMethod).toBe('google-drive')

    const fresh = h.device()
    const connect = await fresh.request('latchkey:wallets:connect', {
      access_token: alice,
      entropy_id: entropyId,
    })
    expect(connect.message.data).toMatchObject({
      status: 'needs-recovery',
      recovery_method: 'google-drive',
    })
    const recovered = await fresh.request('latchkey:wallets:recover', {
      access_token: alice,
      entropy_id: entropyId,
      oauth: h.server.consent('google-drive', ALICE_GOOGLE),
    })
    expect(recovered.message.data).toEqual({
      entropy_id: entropyId,
      status: 'ready',
      recovery_method: 'google-drive',
    })
    expect((await fresh.store.get(APP_ID, entropyId))?.deviceShare).toEqual(
      (await h.store.get(APP_ID, entropyId))?.deviceShare,
    )
    expect(await signsAs(fresh, entropyId)).toBe(true)
  })

  it("recovery with another Google account's consent is CLOUD_RECOVERY_FAILED and stores nothing", async () => {
    const h = setup()
    const entropyId = await createdEntropyId(h, {
      method: 'google-drive',
      oauth: h.server.consent('google-drive', ALICE_GOOGLE),
    })
    const fresh = h.device()
    const answer = await fresh.request('latchkey:wallets:recover', {
      access_token: alice,
      entropy_id: entropyId,
      oauth: h.server.consent('google-drive', 'bob@example.com'),
    })
    expect(answer.message.event).toBe('latchkey:wallets:recover:error')
    expect(answer.message.error).toEqual({
      code: 'CLOUD_RECOVERY_FAILED',
      message: 'Google Drive: No recovery key for this wallet in this Google Drive account',
    })
    expect(fresh.store.records.size).toBe(0)
  })
})

describe('cloud recovery: iCloud', () => {
  it('set-recovery backs up to iCloud, and a fresh device recovers the same wallet', async () => {
    const h = setup()
    const entropyId = await createdEntropyId(h, { method: 'latchkey' })
    const set = await h.request('latchkey:wallets:set-recovery', {
      access_token: alice,
      entropy_id: entropyId,
      recovery: { method: 'icloud', oauth: h.server.consent('icloud', ALICE_ICLOUD) },
    })
    expect(set.message.event).toBe('latchkey:wallets:set-recovery:result')
    const material = h.server.secrets.get(entropyId.toLowerCase())?.recovery
    expect(material).toMatchObject({ method: 'icloud', key_id: expect.any(String) })
    const keyId = (material as { key_id: string }).key_id
    expect(icloud.records(ALICE_ICLOUD)).toContainEqual(
      expect.objectContaining({
        recordName: `latchkey-recovery-${APP_ID}-${keyId}`,
        recordType: 'LatchkeyRecoveryKey',
      }),
    )
    expect((await h.store.get(APP_ID, entropyId))?.recoveryMethod).toBe('icloud')

    const fresh = h.device()
    const recovered = await fresh.request('latchkey:wallets:recover', {
      access_token: alice,
      entropy_id: entropyId,
      oauth: h.server.consent('icloud', ALICE_ICLOUD),
    })
    expect(recovered.message.data).toEqual({
      entropy_id: entropyId,
      status: 'ready',
      recovery_method: 'icloud',
    })
    expect(await signsAs(fresh, entropyId)).toBe(true)
  })

  it('recovery with another iCloud account is CLOUD_RECOVERY_FAILED (NOT_FOUND)', async () => {
    const h = setup()
    const entropyId = await createdEntropyId(h, {
      method: 'icloud',
      oauth: h.server.consent('icloud', ALICE_ICLOUD),
    })
    const fresh = h.device()
    const answer = await fresh.request('latchkey:wallets:recover', {
      access_token: alice,
      entropy_id: entropyId,
      oauth: h.server.consent('icloud', 'bob@icloud.com'),
    })
    expect(answer.message.error?.code).toBe('CLOUD_RECOVERY_FAILED')
    expect(answer.message.error?.message).toMatch(/^iCloud: No recovery key/)
    expect(fresh.store.records.size).toBe(0)
  })
})

describe('cloud recovery: refusals and failures', () => {
  it('a consent of the other provider is refused before anything is stored', async () => {
    const h = setup()
    // A backup's choice names its provider twice: the protocol refuses a mismatch outright.
    const wrong = parseEnclaveRequest({
      id: '1',
      event: 'latchkey:wallets:create',
      data: {
        access_token: alice,
        chain_types: ['ethereum'],
        recovery: { method: 'google-drive', oauth: h.server.consent('icloud', ALICE_ICLOUD) },
      },
    })
    expect(wrong).toBeNull()
    expect(h.server.calls.map((c) => c.path)).toEqual([])
    expect(h.store.records.size).toBe(0)

    const entropyId = await createdEntropyId(h, {
      method: 'google-drive',
      oauth: h.server.consent('google-drive', ALICE_GOOGLE),
    })
    const fresh = h.device()
    const recover = await fresh.request('latchkey:wallets:recover', {
      access_token: alice,
      entropy_id: entropyId,
      oauth: h.server.consent('icloud', ALICE_ICLOUD),
    })
    expect(recover.message.error?.code).toBe('INVALID_PAYLOAD')
    expect(fresh.store.records.size).toBe(0)
  })

  it('recover without a consent is RECOVERY_REQUIRED', async () => {
    const h = setup()
    const entropyId = await createdEntropyId(h, {
      method: 'icloud',
      oauth: h.server.consent('icloud', ALICE_ICLOUD),
    })
    const fresh = h.device()
    const answer = await fresh.request('latchkey:wallets:recover', {
      access_token: alice,
      entropy_id: entropyId,
    })
    expect(answer.message.error).toEqual({
      code: 'RECOVERY_REQUIRED',
      message: "Recovery with iCloud needs the user's consent",
    })
  })

  it('the server refusing the create leaves no device share; a retry backs up under a new key id', async () => {
    const h = setup()
    h.server.failNext(routes.embeddedWalletsCreate, {
      status: 500,
      body: { code: 'INTERNAL_ERROR', message: 'boom' },
    })
    const refused = await createWallet(h, {
      method: 'google-drive',
      oauth: h.server.consent('google-drive', ALICE_GOOGLE),
    })
    expect(refused.error?.code).toBe('USER_WALLET_CREATION_FAILED')
    expect(h.store.records.size).toBe(0)
    const before = google.files(ALICE_GOOGLE).length

    const entropyId = await createdEntropyId(h, {
      method: 'google-drive',
      oauth: h.server.consent('google-drive', ALICE_GOOGLE),
    })
    expect(google.files(ALICE_GOOGLE).length).toBe(before + 1)
    expect(h.store.records.size).toBe(1)
    expect((await h.store.get(APP_ID, entropyId))?.recoveryMethod).toBe('google-drive')
  })

  it("a refused exchange is 'Recovery OAuth failed', an unreachable drive CLOUD_BACKUP_FAILED; nothing is created", async () => {
    const h = setup()
    h.server.failNext(routes.recoveryOAuthAuthenticate, {
      status: 424,
      body: { code: 'CLOUD_RECOVERY_FAILED', message: 'Google refused the code' },
    })
    const refused = await createWallet(h, {
      method: 'google-drive',
      oauth: h.server.consent('google-drive', ALICE_GOOGLE),
    })
    // Spec 02 §8: the cloud-drive consent could not be exchanged.
    expect(refused.error).toEqual({
      code: 'RECOVERY_OAUTH_FAILED',
      message: 'Google Drive: Google refused the code',
    })

    const offline = createHarness({
      fetch: h.server.fetch,
      ancestorOrigins: [HOST],
      cloudFetch: async () => {
        throw new TypeError('Failed to fetch')
      },
    })
    const unreachable = await offline.request('latchkey:wallets:create', {
      access_token: alice,
      chain_types: ['ethereum'],
      recovery: { method: 'icloud', oauth: h.server.consent('icloud', ALICE_ICLOUD) },
    })
    expect(unreachable.message.error).toEqual({
      code: 'CLOUD_BACKUP_FAILED',
      message: 'iCloud: iCloud unreachable (modify)',
    })
    expect(h.server.calls.some((c) => c.path === routes.embeddedWalletsCreate)).toBe(false)
    expect(h.store.records.size + offline.store.records.size).toBe(0)
  })

  it('keeps precise codes: a replayed consent is OAUTH_STATE_MISMATCH, a lost session UNAUTHORIZED', async () => {
    const h = setup()
    const oauth = h.server.consent('google-drive', ALICE_GOOGLE)
    await createdEntropyId(h, { method: 'google-drive', oauth })
    const other = setup()
    const replayed = await createWallet(other, { method: 'google-drive', oauth })
    expect(replayed.error?.code).toBe('OAUTH_STATE_MISMATCH')

    const lost = await h.request('latchkey:wallets:create', {
      access_token: 'not-a-session',
      chain_types: ['ethereum'],
      recovery: { method: 'google-drive', oauth: h.server.consent('google-drive', ALICE_GOOGLE) },
    })
    expect(lost.message.error?.code).toBe('UNAUTHORIZED')
  })

  it('a failed set-recovery backup keeps the old recovery method', async () => {
    const h = setup()
    const entropyId = await createdEntropyId(h, { method: 'latchkey' })
    // A web auth token CloudKit does not know: 421 AUTHENTICATION_REQUIRED.
    const oauth = { ...h.server.consent('icloud', ALICE_ICLOUD), authorization_code: 'expired' }
    const answer = await h.request('latchkey:wallets:set-recovery', {
      access_token: alice,
      entropy_id: entropyId,
      recovery: { method: 'icloud', oauth },
    })
    expect(answer.message.error).toEqual({
      code: 'CLOUD_BACKUP_FAILED',
      message: 'iCloud: iCloud modify answered 421 AUTHENTICATION_REQUIRED',
    })
    expect(h.server.secrets.get(entropyId.toLowerCase())?.recovery.method).toBe('latchkey')
    expect((await h.store.get(APP_ID, entropyId))?.recoveryMethod).toBe('latchkey')
  })

  it('import stays automatic', async () => {
    const h = setup()
    const answer = await h.request('latchkey:wallets:import', {
      access_token: alice,
      chain_type: 'ethereum',
      private_key: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    })
    expect(answer.message.event).toBe('latchkey:wallets:import:result')
    expect(h.server.calls.at(-1)?.body).toMatchObject({ recovery: { method: 'latchkey' } })
  })
})
