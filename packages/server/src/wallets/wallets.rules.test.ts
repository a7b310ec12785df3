import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  b64url,
  ethAddress,
  hdBody,
  importBody,
  mixedCase,
  recovery,
  solAddress,
} from '../test/wallets.ts'

// The rules of every embedded-wallet route; security properties have their own files.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    appSettings: {
      embedded_wallet_config: {
        user_owned_recovery_options: ['user-passcode', 'google-drive', 'icloud'],
      },
    },
  })
  // Cloud methods are usable only with the app's provider credentials.
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'google-drive',
    client_id: 'cid',
    client_secret: 'secret',
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'icloud',
    container_id: 'iCloud.com.example.app',
    environment: 'development',
    api_token: 'token',
  })
})
afterAll(() => t.close())

let n = 0
/** A session bound to the instance's enclave key, whose proofs `post` sends. */
const tokenOf = async (email: string, appId?: string) =>
  (await t.login(email, { appId, enclaveKey: t.enclaveKey })).token ?? ''
const newUser = () => tokenOf(`user${++n}@example.com`)
const post = (path: string, token: string, body: unknown) => t.enclaveRequest(path, { token, body })
const create = (token: string, body: unknown) => post(routes.embeddedWalletsCreate, token, body)
const add = (token: string, body: unknown) => post(routes.embeddedWalletsAdd, token, body)
// biome-ignore lint/suspicious/noExplicitAny: wire users are inspected loosely
const walletsOf = (user: any) =>
  user.linked_accounts.filter((a: { type: string }) => a.type === 'wallet')
const secretCount = () => t.countRows('wallet_secrets')

describe('create', () => {
  it('stores an HD secret with Ethereum and Solana wallets; the user wire shows them', async () => {
    const token = await newUser()
    const body = hdBody({ solana: true })
    const res = await create(token, body)
    expect(res.status).toBe(200)
    const expected = {
      type: 'wallet',
      wallet_client_type: 'latchkey',
      connector_type: 'embedded',
      imported: false,
      delegated: false,
      recovery_method: 'latchkey',
      entropy_id: body.entropy_id,
      wallet_index: 0,
      verified_at: expect.any(Number),
      first_verified_at: expect.any(Number),
      latest_verified_at: expect.any(Number),
    }
    expect(walletsOf(res.body)).toEqual([
      { ...expected, address: body.entropy_id, chain_type: 'ethereum' },
      { ...expected, address: body.wallets[1]?.address, chain_type: 'solana' },
    ])
    const me = await t.request(routes.usersMe, { token })
    expect(walletsOf(me.body.user)).toEqual(walletsOf(res.body))
  })

  it('the refreshed session carries the wallets too', async () => {
    const login = await t.login('refresh-wallet@example.com', { enclaveKey: t.enclaveKey })
    const body = hdBody()
    await create(login.token ?? '', body)
    const res = await t.request(routes.sessionRefresh, {
      body: { refresh_token: login.refresh_token },
    })
    expect(res.status).toBe(200)
    expect(walletsOf(res.body.user)).toMatchObject([
      { address: body.entropy_id, recovery_method: 'latchkey' },
    ])
  })

  it('a second HD secret: 400 WALLET_ALREADY_EXISTS, nothing written', async () => {
    const token = await newUser()
    expect((await create(token, hdBody())).status).toBe(200)
    const before = await secretCount()
    expect(await create(token, hdBody())).toMatchObject({
      status: 400,
      body: { code: 'WALLET_ALREADY_EXISTS', message: 'User already has an embedded wallet.' },
    })
    expect(await secretCount()).toBe(before)
  })

  it('imported keys: one wallet each, no index, imported: true; several per user', async () => {
    const token = await newUser()
    const eth = importBody('ethereum')
    const sol = importBody('solana', { recovery: recovery('icloud') })
    expect((await create(token, hdBody())).status).toBe(200)
    expect((await create(token, eth)).status).toBe(200)
    const res = await create(token, sol)
    expect(res.status).toBe(200)
    expect(walletsOf(res.body).slice(1)).toMatchObject([
      {
        address: eth.entropy_id,
        chain_type: 'ethereum',
        wallet_index: null,
        imported: true,
        recovery_method: 'user-passcode',
      },
      {
        address: sol.entropy_id,
        chain_type: 'solana',
        wallet_index: null,
        imported: true,
        recovery_method: 'icloud',
      },
    ])
    // The same key again: the user has it already.
    expect(await create(token, { ...eth, auth_share: b64url() })).toMatchObject({
      status: 400,
      body: { code: 'WALLET_ALREADY_EXISTS' },
    })
    // Another user importing it: the address is linked.
    expect(await create(await newUser(), eth)).toMatchObject({
      status: 400,
      body: { code: 'ACCOUNT_ALREADY_LINKED' },
    })
  })

  it('an address linked to anyone (any letter case): 400 ACCOUNT_ALREADY_LINKED, nothing written', async () => {
    const first = hdBody({ solana: true })
    expect((await create(await newUser(), first)).status).toBe(200)
    const token = await newUser()
    const before = await secretCount()
    const sameSolana = hdBody()
    sameSolana.wallets.push({
      chain_type: 'solana',
      address: first.wallets[1]?.address ?? '',
      wallet_index: 0,
    })
    const sameEntropy = { ...hdBody(), entropy_id: mixedCase(first.entropy_id) }
    sameEntropy.wallets = [
      { chain_type: 'ethereum', address: mixedCase(first.entropy_id), wallet_index: 0 },
    ]
    for (const body of [sameSolana, sameEntropy])
      expect(await create(token, body)).toMatchObject({
        status: 400,
        body: { code: 'ACCOUNT_ALREADY_LINKED' },
      })
    expect(await secretCount()).toBe(before)
    const me = await t.request(routes.usersMe, { token })
    expect(walletsOf(me.body.user)).toEqual([])
  })

  it('refuses inconsistent chains and indexes with 400 INVALID_PAYLOAD, nothing written', async () => {
    const token = await newUser()
    const hd = hdBody()
    const eth0 = { chain_type: 'ethereum', address: hd.entropy_id, wallet_index: 0 }
    const imp = importBody()
    const cases: Record<string, unknown> = {
      'index-0 Ethereum address is not the entropy id': {
        ...hd,
        wallets: [{ chain_type: 'ethereum', address: ethAddress(), wallet_index: 0 }],
      },
      'entropy id at another index': { ...hd, wallets: [{ ...eth0, wallet_index: 1 }] },
      'HD wallet without an index': { ...hd, wallets: [{ ...eth0, wallet_index: null }] },
      'Solana address on the Ethereum chain': {
        ...hd,
        wallets: [eth0, { chain_type: 'ethereum', address: solAddress(), wallet_index: 1 }],
      },
      'Ethereum address on the Solana chain': {
        ...hd,
        wallets: [eth0, { chain_type: 'solana', address: ethAddress(), wallet_index: 0 }],
      },
      'same chain and index twice': {
        ...hd,
        wallets: [
          { chain_type: 'solana', address: solAddress(), wallet_index: 3 },
          { chain_type: 'solana', address: solAddress(), wallet_index: 3 },
        ],
      },
      'same address twice': {
        ...hd,
        wallets: [eth0, { ...eth0, address: mixedCase(hd.entropy_id) }],
      },
      'HD entropy id that is a Solana address': {
        ...hd,
        entropy_id: solAddress(),
        wallets: [{ chain_type: 'solana', address: solAddress(), wallet_index: 0 }],
      },
      'imported key with an index': { ...imp, wallets: [{ ...imp.wallets[0], wallet_index: 0 }] },
      'imported key with two wallets': {
        ...imp,
        wallets: [
          imp.wallets[0],
          { chain_type: 'solana', address: solAddress(), wallet_index: null },
        ],
      },
      'imported address is not the entropy id': {
        ...imp,
        wallets: [{ chain_type: 'ethereum', address: ethAddress(), wallet_index: null }],
      },
      'imported address on the wrong chain': {
        ...imp,
        wallets: [{ ...imp.wallets[0], chain_type: 'solana' }],
      },
    }
    const before = [await secretCount(), await t.countRows('linked_accounts')]
    for (const [name, body] of Object.entries(cases))
      expect(await create(token, body), name).toMatchObject({
        status: 400,
        body: { code: 'INVALID_PAYLOAD' },
      })
    expect([await secretCount(), await t.countRows('linked_accounts')]).toEqual(before)
  })

  it("follows the app's recovery policy", async () => {
    const strict = await t.createApp({
      embedded_wallet_config: { require_user_owned_recovery_on_create: true },
    })
    const token = await tokenOf('strict@example.com', strict.id)
    const call = (body: unknown) =>
      t.enclaveRequest(routes.embeddedWalletsCreate, { token, body, appId: strict.id })
    expect(await call(hdBody())).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
    // Only user-passcode is offered by default.
    expect(await call(hdBody({ recovery: recovery('google-drive') }))).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PAYLOAD' },
    })
    const ok = hdBody({ recovery: recovery('user-passcode') })
    expect((await call(ok)).status).toBe(200)
    expect(
      await t.enclaveRequest(routes.embeddedWalletsSetRecovery, {
        token,
        appId: strict.id,
        body: { entropy_id: ok.entropy_id, recovery: recovery('latchkey') },
      }),
    ).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
  })

  it('a cloud method the app offers but has no credentials for: 400 CLOUD_RECOVERY_NOT_CONFIGURED', async () => {
    const unconfigured = await t.createApp({
      embedded_wallet_config: { user_owned_recovery_options: ['google-drive', 'icloud'] },
    })
    const token = await tokenOf('unconfigured@example.com', unconfigured.id)
    const before = await secretCount()
    for (const method of ['google-drive', 'icloud'] as const)
      expect(
        await t.enclaveRequest(routes.embeddedWalletsCreate, {
          token,
          appId: unconfigured.id,
          body: hdBody({ recovery: recovery(method) }),
        }),
      ).toMatchObject({ status: 400, body: { code: 'CLOUD_RECOVERY_NOT_CONFIGURED' } })
    expect(await secretCount()).toBe(before)
    await t.server.setAppProviderCredentials(unconfigured.id, {
      provider: 'google-drive',
      client_id: 'cid',
      client_secret: 'secret',
    })
    const ok = hdBody({ recovery: recovery('google-drive') })
    expect(
      (
        await t.enclaveRequest(routes.embeddedWalletsCreate, {
          token,
          appId: unconfigured.id,
          body: ok,
        })
      ).status,
    ).toBe(200)
    // set-recovery follows the same rule.
    expect(
      await t.enclaveRequest(routes.embeddedWalletsSetRecovery, {
        token,
        appId: unconfigured.id,
        body: { entropy_id: ok.entropy_id, recovery: recovery('icloud') },
      }),
    ).toMatchObject({ status: 400, body: { code: 'CLOUD_RECOVERY_NOT_CONFIGURED' } })
  })
})

describe('add', () => {
  it('adds other indexes and the other chain of the own HD secret', async () => {
    const token = await newUser()
    const hd = hdBody()
    await create(token, hd)
    const eth1 = {
      entropy_id: mixedCase(hd.entropy_id),
      chain_type: 'ethereum',
      address: ethAddress(),
      wallet_index: 1,
    }
    expect((await add(token, eth1)).status).toBe(200)
    const sol0 = {
      entropy_id: hd.entropy_id,
      chain_type: 'solana',
      address: solAddress(),
      wallet_index: 0,
    }
    const res = await add(token, sol0)
    expect(res.status).toBe(200)
    expect(walletsOf(res.body)).toMatchObject([
      { chain_type: 'ethereum', wallet_index: 0, entropy_id: hd.entropy_id },
      {
        chain_type: 'ethereum',
        wallet_index: 1,
        address: eth1.address,
        entropy_id: hd.entropy_id,
        imported: false,
      },
      { chain_type: 'solana', wallet_index: 0, address: sol0.address, recovery_method: 'latchkey' },
    ])

    const other = hdBody({ solana: true })
    await create(await newUser(), other)
    const before = await t.countRows('linked_accounts')
    // A used slot.
    expect(await add(token, { ...eth1, address: ethAddress() })).toMatchObject({
      status: 400,
      body: { code: 'WALLET_ALREADY_EXISTS' },
    })
    expect(await add(token, { ...sol0, address: solAddress() })).toMatchObject({
      status: 400,
      body: { code: 'WALLET_ALREADY_EXISTS' },
    })
    // Inconsistent with the secret.
    expect(await add(token, { ...eth1, wallet_index: 0, address: ethAddress() })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PAYLOAD' },
    })
    expect(await add(token, { ...eth1, wallet_index: 2, address: hd.entropy_id })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PAYLOAD' },
    })
    expect(await add(token, { ...sol0, wallet_index: 1, address: ethAddress() })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PAYLOAD' },
    })
    expect(await add(token, { ...sol0, wallet_index: null })).toMatchObject({ status: 400 })
    // An address someone already has.
    expect(
      await add(token, { ...sol0, wallet_index: 5, address: other.wallets[1]?.address }),
    ).toMatchObject({ status: 400, body: { code: 'ACCOUNT_ALREADY_LINKED' } })
    expect(await t.countRows('linked_accounts')).toBe(before)
  })

  it('unknown or foreign entropy: 404 WALLET_NOT_FOUND; an imported key: 400', async () => {
    const token = await newUser()
    const mine = importBody()
    await create(token, mine)
    const theirs = hdBody()
    await create(await newUser(), theirs)
    const wallet = { chain_type: 'ethereum', address: ethAddress(), wallet_index: 1 }
    expect(await add(token, { ...wallet, entropy_id: ethAddress() })).toMatchObject({
      status: 404,
      body: { code: 'WALLET_NOT_FOUND' },
    })
    expect(await add(token, { ...wallet, entropy_id: theirs.entropy_id })).toMatchObject({
      status: 404,
      body: { code: 'WALLET_NOT_FOUND' },
    })
    expect(await add(token, { ...wallet, entropy_id: mine.entropy_id })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PAYLOAD' },
    })
  })
})

describe('recovery material', () => {
  it('answers per method: key for automatic, kdf for passcode, ciphertext and key id for cloud', async () => {
    const token = await newUser()
    const bodies = [
      hdBody(),
      importBody('ethereum', { recovery: recovery('user-passcode') }),
      importBody('solana', { recovery: recovery('google-drive') }),
      importBody('solana', { recovery: recovery('icloud') }),
    ]
    for (const body of bodies) {
      expect((await create(token, body)).status).toBe(200)
      const res = await post(routes.embeddedWalletsRecovery, token, { entropy_id: body.entropy_id })
      expect(res).toMatchObject({ status: 200 })
      expect(res.body).toEqual({ entropy_id: body.entropy_id, recovery: body.recovery })
    }
  })

  it('cloud material round-trips its key_id; leaving a cloud method clears it', async () => {
    const token = await newUser()
    const body = importBody('solana', { recovery: recovery('google-drive') })
    expect((await create(token, body)).status).toBe(200)
    const stored = () =>
      t.db
        .selectFrom('wallet_secrets')
        .select(['recovery_method', 'recovery_key_id'])
        .where('entropy_id', '=', body.entropy_id)
        .executeTakeFirstOrThrow()
    const keyId = body.recovery.method === 'google-drive' ? body.recovery.key_id : ''
    expect(await stored()).toEqual({ recovery_method: 'google-drive', recovery_key_id: keyId })
    const next = recovery('icloud')
    await post(routes.embeddedWalletsSetRecovery, token, {
      entropy_id: body.entropy_id,
      recovery: next,
    })
    expect(
      (await post(routes.embeddedWalletsRecovery, token, { entropy_id: body.entropy_id })).body,
    ).toEqual({ entropy_id: body.entropy_id, recovery: next })
    await post(routes.embeddedWalletsSetRecovery, token, {
      entropy_id: body.entropy_id,
      recovery: recovery('user-passcode'),
    })
    expect(await stored()).toEqual({ recovery_method: 'user-passcode', recovery_key_id: null })
  })

  it('a cloud row without its key_id is inconsistent: 500, nothing half-answered', async () => {
    const token = await newUser()
    const body = importBody('ethereum', { recovery: recovery('icloud') })
    await create(token, body)
    await t.db
      .updateTable('wallet_secrets')
      .set({ recovery_key_id: null })
      .where('entropy_id', '=', body.entropy_id)
      .execute()
    expect(
      await post(routes.embeddedWalletsRecovery, token, { entropy_id: body.entropy_id }),
    ).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR' } })
  })

  it('a checksummed entropy id finds a secret stored lowercase', async () => {
    const token = await newUser()
    const body = hdBody()
    await create(token, body)
    const res = await post(routes.embeddedWalletsAuthShare, token, {
      entropy_id: mixedCase(body.entropy_id),
    })
    expect(res).toMatchObject({ status: 200, body: { auth_share: body.auth_share } })
  })
})

describe('set recovery', () => {
  it('automatic → password replaces the material and deletes the server-held key', async () => {
    const token = await newUser()
    const body = hdBody({ solana: true })
    await create(token, body)
    const next = recovery('user-passcode')
    const res = await post(routes.embeddedWalletsSetRecovery, token, {
      entropy_id: body.entropy_id,
      recovery: next,
    })
    expect(res.status).toBe(200)
    for (const w of walletsOf(res.body)) expect(w.recovery_method).toBe('user-passcode')
    const row = await t.db
      .selectFrom('wallet_secrets')
      .selectAll()
      .where('entropy_id', '=', body.entropy_id)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({ recovery_method: 'user-passcode', recovery_key: null })
    expect(JSON.parse(row.recovery_kdf ?? '')).toEqual(
      next.method === 'user-passcode' ? next.kdf : null,
    )
    expect(
      (await post(routes.embeddedWalletsRecovery, token, { entropy_id: body.entropy_id })).body
        .recovery,
    ).toEqual(next)
    // The auth share is untouched.
    expect(
      (await post(routes.embeddedWalletsAuthShare, token, { entropy_id: body.entropy_id })).body
        .auth_share,
    ).toBe(body.auth_share)

    const cloud = recovery('google-drive')
    await post(routes.embeddedWalletsSetRecovery, token, {
      entropy_id: body.entropy_id,
      recovery: cloud,
    })
    const after = await t.db
      .selectFrom('wallet_secrets')
      .selectAll()
      .where('entropy_id', '=', body.entropy_id)
      .executeTakeFirstOrThrow()
    expect(after).toMatchObject({
      recovery_method: 'google-drive',
      recovery_key: null,
      recovery_kdf: null,
    })
  })

  it("another user's or an unknown secret: 404, and the row is unchanged", async () => {
    const owner = await newUser()
    const body = hdBody()
    await create(owner, body)
    const before = await t.db
      .selectFrom('wallet_secrets')
      .selectAll()
      .where('entropy_id', '=', body.entropy_id)
      .executeTakeFirstOrThrow()
    const other = await newUser()
    for (const entropy_id of [body.entropy_id, ethAddress()])
      expect(
        await post(routes.embeddedWalletsSetRecovery, other, {
          entropy_id,
          recovery: recovery('user-passcode'),
        }),
      ).toMatchObject({ status: 404, body: { code: 'WALLET_NOT_FOUND' } })
    const after = await t.db
      .selectFrom('wallet_secrets')
      .selectAll()
      .where('entropy_id', '=', body.entropy_id)
      .executeTakeFirstOrThrow()
    expect(after).toEqual(before)
  })
})

describe('malformed payloads', () => {
  it('every malformed body gets 400 INVALID_PAYLOAD and writes nothing', async () => {
    const token = await newUser()
    const hd = hdBody()
    const eth0 = hd.wallets[0]
    const cases: Array<[string, string, unknown]> = [
      ['create: empty', routes.embeddedWalletsCreate, {}],
      ['create: no wallets', routes.embeddedWalletsCreate, { ...hd, wallets: [] }],
      [
        'create: three wallets',
        routes.embeddedWalletsCreate,
        { ...hd, wallets: [eth0, eth0, eth0] },
      ],
      ['create: bad entropy id', routes.embeddedWalletsCreate, { ...hd, entropy_id: '0x1234' }],
      [
        'create: bad entropy type',
        routes.embeddedWalletsCreate,
        { ...hd, entropy_type: 'mnemonic' },
      ],
      [
        'create: auth share not base64url',
        routes.embeddedWalletsCreate,
        { ...hd, auth_share: 'a+b/c=' },
      ],
      ['create: auth share empty', routes.embeddedWalletsCreate, { ...hd, auth_share: '' }],
      [
        'create: auth share too long',
        routes.embeddedWalletsCreate,
        { ...hd, auth_share: 'A'.repeat(4097) },
      ],
      ['create: no recovery', routes.embeddedWalletsCreate, { ...hd, recovery: undefined }],
      [
        'create: unknown recovery method',
        routes.embeddedWalletsCreate,
        { ...hd, recovery: { method: 'email', ciphertext: b64url() } },
      ],
      [
        'create: latchkey without key',
        routes.embeddedWalletsCreate,
        { ...hd, recovery: { method: 'latchkey', ciphertext: b64url() } },
      ],
      [
        'create: passcode without kdf',
        routes.embeddedWalletsCreate,
        { ...hd, recovery: { method: 'user-passcode', ciphertext: b64url() } },
      ],
      [
        'create: weak kdf',
        routes.embeddedWalletsCreate,
        {
          ...hd,
          recovery: {
            ...recovery('user-passcode'),
            kdf: {
              algorithm: 'argon2id',
              salt: b64url(16),
              memory_kib: 1024,
              iterations: 1,
              parallelism: 1,
            },
          },
        },
      ],
      [
        'create: wallet index negative',
        routes.embeddedWalletsCreate,
        { ...hd, wallets: [{ ...eth0, wallet_index: -1 }] },
      ],
      [
        'create: wallet index fractional',
        routes.embeddedWalletsCreate,
        { ...hd, wallets: [{ ...eth0, wallet_index: 0.5 }] },
      ],
      [
        'create: unknown chain',
        routes.embeddedWalletsCreate,
        { ...hd, wallets: [{ ...eth0, chain_type: 'bitcoin' }] },
      ],
      [
        'create: address with 0l chars',
        routes.embeddedWalletsCreate,
        { ...hd, wallets: [{ ...eth0, address: '0l'.repeat(20) }] },
      ],
      ['create: not JSON', routes.embeddedWalletsCreate, '{"entropy_id":'],
      [
        'add: no entropy',
        routes.embeddedWalletsAdd,
        { chain_type: 'ethereum', address: ethAddress(), wallet_index: 1 },
      ],
      [
        'add: index over 1000',
        routes.embeddedWalletsAdd,
        {
          entropy_id: hd.entropy_id,
          chain_type: 'ethereum',
          address: ethAddress(),
          wallet_index: 1001,
        },
      ],
      ['auth share: no entropy', routes.embeddedWalletsAuthShare, {}],
      ['auth share: entropy of wrong type', routes.embeddedWalletsAuthShare, { entropy_id: 7 }],
      ['recovery: bad entropy', routes.embeddedWalletsRecovery, { entropy_id: 'wallet-1' }],
      [
        'set recovery: no material',
        routes.embeddedWalletsSetRecovery,
        { entropy_id: hd.entropy_id },
      ],
      [
        'create: cloud material without key_id',
        routes.embeddedWalletsCreate,
        { ...hd, recovery: { method: 'google-drive', ciphertext: b64url() } },
      ],
      [
        'create: cloud key_id not 22 base64url characters',
        routes.embeddedWalletsCreate,
        { ...hd, recovery: { method: 'icloud', ciphertext: b64url(), key_id: '../../etc/passwd' } },
      ],
      [
        'set recovery: ciphertext not base64url',
        routes.embeddedWalletsSetRecovery,
        { entropy_id: hd.entropy_id, recovery: { method: 'icloud', ciphertext: 'no spaces' } },
      ],
    ]
    const before = [await secretCount(), await t.countRows('linked_accounts')]
    for (const [name, path, body] of cases) {
      const res =
        typeof body === 'string'
          ? await t.enclaveRequest(path, { token, rawBody: body })
          : await post(path, token, body)
      expect(res, name).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
    }
    expect([await secretCount(), await t.countRows('linked_accounts')]).toEqual(before)
  })
})
