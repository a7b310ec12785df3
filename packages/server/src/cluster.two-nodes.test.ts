import { routes, TOTP_PERIOD_S } from '@latchkey/protocol'
import { decodeProtectedHeader } from 'jose'
import { generate } from 'otplib'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Deployment,
  missingClusterServices,
  type ClusterNode as Node,
  CLUSTER_ORIGIN as ORIGIN,
  startDeployment,
} from './test/cluster.ts'
import { createTestEnclaveKey } from './test/enclave-key.ts'

// Tracker issue 20, item 1: two nodes of one deployment — two server
// PROCESSES on one PostgreSQL schema and one Redis, with the same master key
// and public URL — and consecutive steps of each flow sent to alternating
// nodes. What a flow keeps between steps must live in the database or Redis,
// never in a process. The nodes' clocks are the test's (moved over IPC).
const SEND_LIMIT = 4
const missing = await missingClusterServices('cluster.two-nodes.test.ts')

let deployment: Deployment
let a: Node
let b: Node
const call: Deployment['call'] = (...args) => deployment.call(...args)
const mailboxCode: Deployment['mailboxCode'] = (...args) => deployment.mailboxCode(...args)
const emailLogin: Deployment['emailLogin'] = (...args) => deployment.emailLogin(...args)
const advance = (ms: number) => deployment.advance(ms)

describe.skipIf(missing.length > 0)('two nodes on one PostgreSQL and one Redis', () => {
  beforeAll(async () => {
    deployment = await startDeployment({ codeSendsPerAddress: SEND_LIMIT })
    ;[a, b] = deployment.nodes as [Node, Node]
  }, 180_000)

  afterAll(() => deployment?.stop(), 30_000)

  it('publish one JWKS, sign with one key, and verify each other’s tokens', async () => {
    const [jwksA, jwksB] = await Promise.all([
      call(a, routes.jwks(deployment.appId)),
      call(b, routes.jwks(deployment.appId)),
    ])
    expect(jwksA.status).toBe(200)
    expect(jwksB.body).toEqual(jwksA.body)
    expect(jwksA.body.keys).toHaveLength(1)
    const fromA = await emailLogin(a, a, 'jwks-a@example.com')
    const fromB = await emailLogin(b, b, 'jwks-b@example.com')
    expect(decodeProtectedHeader(fromA.token).kid).toBe(jwksA.body.keys[0].kid)
    expect(decodeProtectedHeader(fromB.token).kid).toBe(jwksA.body.keys[0].kid)
    expect((await call(b, routes.usersMe, { token: fromA.token })).status).toBe(200)
    expect((await call(a, routes.usersMe, { token: fromB.token })).status).toBe(200)
  })

  it('email code: init on A, code and login on B; the code is single use on A', async () => {
    const email = 'email-code@example.com'
    expect((await call(a, routes.emailInit, { body: { email } })).status).toBe(200)
    // The resend cooldown is a database row: B refuses a resend A just made.
    expect((await call(b, routes.emailInit, { body: { email } })).body.code).toBe('RESEND_COOLDOWN')
    const code = await mailboxCode(b, email)
    const auth = await call(b, routes.emailAuthenticate, { body: { email, code } })
    expect(auth.status).toBe(200)
    expect(await call(a, routes.emailAuthenticate, { body: { email, code } })).toMatchObject({
      status: 422,
      body: { code: 'INVALID_CODE' },
    })
    expect((await call(a, routes.usersMe, { token: auth.body.token })).body.user.id).toBe(
      auth.body.user.id,
    )
  })

  it('SMS code: sent by B (its dev outbox is per process: read there), used on A, spent on B', async () => {
    const phoneNumber = '+14155550142'
    expect((await call(b, routes.smsInit, { body: { phoneNumber } })).status).toBe(200)
    expect((await call(a, routes.smsInit, { body: { phoneNumber } })).body.code).toBe(
      'RESEND_COOLDOWN',
    )
    const outbox = await call(b, `${routes.devOutbox}?to=${encodeURIComponent(phoneNumber)}`, {
      app: false,
    })
    const code = outbox.body.messages[0].code
    expect((await call(a, routes.smsAuthenticate, { body: { phoneNumber, code } })).status).toBe(
      200,
    )
    expect(await call(b, routes.smsAuthenticate, { body: { phoneNumber, code } })).toMatchObject({
      status: 422,
      body: { code: 'INVALID_CODE' },
    })
  })

  it('refresh tokens rotate on alternating nodes; reuse on the other node ends the family', async () => {
    const login = await emailLogin(a, b, 'refresh@example.com')
    const refresh = (node: Node, token: string) =>
      call(node, routes.sessionRefresh, { body: { refresh_token: token } })
    const r1 = await refresh(a, login.refresh_token)
    expect(r1.status).toBe(200)
    const r2 = await refresh(b, r1.body.refresh_token)
    expect(r2.status).toBe(200)
    const r3 = await refresh(a, r2.body.refresh_token)
    expect(r3.status).toBe(200)
    // r1's successor (r2) was used: r1 presented again, on B, revokes the family.
    expect((await refresh(b, r1.body.refresh_token)).body.code).toBe('INVALID_REFRESH_TOKEN')
    expect((await refresh(a, r3.body.refresh_token)).body.code).toBe('INVALID_REFRESH_TOKEN')
    expect((await call(a, routes.usersMe, { token: r3.body.token })).status).toBe(401)
    expect((await call(b, routes.usersMe, { token: r3.body.token })).status).toBe(401)
  })

  it('SIWE: nonce from A, signature verified on B; the replay on A is refused', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const init = await call(a, routes.siweInit, { body: { address: account.address } })
    expect(init.status).toBe(200)
    const message = createSiweMessage({
      address: account.address,
      chainId: 1,
      domain: new URL(ORIGIN).host,
      nonce: init.body.nonce,
      uri: ORIGIN,
      version: '1',
      issuedAt: new Date(deployment.now()),
    })
    const body = {
      message,
      signature: await account.signMessage({ message }),
      wallet_client_type: 'metamask',
      connector_type: 'injected',
    }
    const login = await call(b, routes.siweAuthenticate, { body })
    expect(login.status).toBe(200)
    const replay = await call(a, routes.siweAuthenticate, { body })
    expect(replay.body).toMatchObject({
      code: 'WALLET_LOGIN_FAILED',
      details: { reason: 'nonce_used' },
    })
  })

  it('the per-address code-send limit, reached half on each node, refuses on both (Redis)', async () => {
    const email = 'limit@example.com'
    for (let i = 0; i < SEND_LIMIT; i++) {
      // Past the resend cooldown (a database row) each time; the count is Redis's.
      await advance(31_000)
      expect((await call(i % 2 ? b : a, routes.emailInit, { body: { email } })).status).toBe(200)
    }
    await advance(31_000)
    expect((await call(a, routes.emailInit, { body: { email } })).status).toBe(429)
    await advance(31_000)
    expect((await call(b, routes.emailInit, { body: { email } })).status).toBe(429)
  })

  it('a key rotated on A signs on A, verifies on B, and is in both JWKS', async () => {
    const before = await emailLogin(b, b, 'before-rotation@example.com')
    const reply = await a.ask({ type: 'rotate' })
    if (reply.type !== 'rotated') throw new Error(`unexpected reply ${reply.type}`)
    const after = await emailLogin(a, a, 'after-rotation@example.com')
    expect(decodeProtectedHeader(after.token).kid).toBe(reply.kid)
    // B has never seen the new kid: an unknown kid makes it reload the keys (at most once a second).
    await advance(1_001)
    expect((await call(b, routes.usersMe, { token: after.token })).status).toBe(200)
    // The retired key stays published, so tokens it signed keep verifying on both.
    expect((await call(a, routes.usersMe, { token: before.token })).status).toBe(200)
    // B keeps its view of the keys table at most a minute (keys.ts RELOAD_MS); then it signs with the new key.
    await advance(60_001)
    const [jwksA, jwksB] = await Promise.all([
      call(a, routes.jwks(deployment.appId)),
      call(b, routes.jwks(deployment.appId)),
    ])
    expect(jwksB.body).toEqual(jwksA.body)
    expect(jwksA.body.keys.map((k: { kid: string }) => k.kid)).toContain(reply.kid)
    const onB = await emailLogin(b, a, 'after-rotation-b@example.com')
    expect(decodeProtectedHeader(onB.token).kid).toBe(reply.kid)
  })

  it('MFA: an authenticator app set up on A and confirmed on B; verified on A, the code spent on B', async () => {
    const key = await createTestEnclaveKey()
    const { token } = await emailLogin(a, b, 'mfa@example.com', key)
    const enclave = (node: Node, path: string, body: object) =>
      deployment.enclaveCall(node, path, { token, key }, body)
    const totp = () => generate({ secret, epoch: Math.floor(deployment.now() / 1000) })
    const init = await enclave(a, routes.mfaTotpInit, {})
    expect(init.status).toBe(200)
    const secret: string = init.body.secret
    expect((await enclave(b, routes.mfaTotpEnroll, { code: await totp() })).status).toBe(200)
    await advance(TOTP_PERIOD_S * 1000)
    const code = await totp()
    expect((await enclave(a, routes.mfaVerify, { method: 'totp', code })).status).toBe(200)
    // The factor's last used step is a database column: B refuses the code A took.
    expect(await enclave(b, routes.mfaVerify, { method: 'totp', code })).toMatchObject({
      status: 422,
      body: { code: 'MFA_INVALID_CODE' },
    })
  })
})
