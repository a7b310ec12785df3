import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Deployment,
  type EnclaveSession,
  missingClusterServices,
  type ClusterNode as Node,
  startDeployment,
} from './test/cluster.ts'
import { createTestEnclaveKey } from './test/enclave-key.ts'
import { hdBody, recovery } from './test/wallets.ts'

// Tracker issue 20, item 1, the embedded wallet on cluster.two-nodes.test.ts's
// deployment (two server processes, one PostgreSQL schema, one Redis): its
// shares stored through one node are released by the other, a recovery
// method set on one is what the other hands a new device, and a key route's
// proof (RFC 9449 §11.1: used once) is spent on both.
const missing = await missingClusterServices('cluster.two-nodes-wallets.test.ts')

let deployment: Deployment
let a: Node
let b: Node

/** An email login on `first` → `second`, its session bound to a new enclave key. */
async function device(first: Node, second: Node, email: string): Promise<EnclaveSession> {
  const key = await createTestEnclaveKey()
  const { token } = await deployment.emailLogin(first, second, email, key)
  return { token, key }
}

describe.skipIf(missing.length > 0)('the embedded wallet across two nodes', () => {
  beforeAll(async () => {
    deployment = await startDeployment()
    ;[a, b] = deployment.nodes as [Node, Node]
  }, 180_000)

  afterAll(() => deployment?.stop(), 30_000)

  it('created on A, its auth share released on B; a proof spent on B is refused on A', async () => {
    const session = await device(a, b, 'wallet-create@example.com')
    const wallet = hdBody()
    const created = await deployment.enclaveCall(a, routes.embeddedWalletsCreate, session, wallet)
    expect(created.status).toBe(200)
    expect(created.body.linked_accounts).toEqual(
      expect.arrayContaining([expect.objectContaining({ address: wallet.entropy_id })]),
    )
    // One HD secret per user: B sees the secret A stored.
    const twice = await deployment.enclaveCall(b, routes.embeddedWalletsCreate, session, hdBody())
    expect(twice.body.code).toBe('WALLET_ALREADY_EXISTS')

    const body = { entropy_id: wallet.entropy_id }
    const proof = await deployment.enclaveProof(routes.embeddedWalletsAuthShare, session)
    const share = await deployment.enclaveCall(
      b,
      routes.embeddedWalletsAuthShare,
      session,
      body,
      proof,
    )
    expect(share.status).toBe(200)
    expect(share.body.auth_share).toBe(wallet.auth_share)
    // The proof's jti is a database row: A refuses the proof B took.
    const replay = await deployment.enclaveCall(
      a,
      routes.embeddedWalletsAuthShare,
      session,
      body,
      proof,
    )
    expect(replay).toMatchObject({ status: 401, body: { code: 'ENCLAVE_PROOF_INVALID' } })
    expect(JSON.stringify(replay.body)).not.toContain(wallet.auth_share)
  })

  it('recovery set to a password on A; a new device recovers on B and signs through A', async () => {
    const email = 'wallet-recover@example.com'
    const first = await device(a, b, email)
    const wallet = hdBody()
    expect(
      (await deployment.enclaveCall(a, routes.embeddedWalletsCreate, first, wallet)).status,
    ).toBe(200)
    const password = recovery('user-passcode')
    const set = await deployment.enclaveCall(a, routes.embeddedWalletsSetRecovery, first, {
      entropy_id: wallet.entropy_id,
      recovery: password,
    })
    expect(set.status).toBe(200)

    // The user on a new device, past the code's resend cooldown: another login, another enclave key.
    await deployment.advance(31_000)
    const second = await device(b, a, email)
    const body = { entropy_id: wallet.entropy_id }
    const material = await deployment.enclaveCall(b, routes.embeddedWalletsRecovery, second, body)
    expect(material.status).toBe(200)
    expect(material.body.recovery).toEqual(password)
    const share = await deployment.enclaveCall(a, routes.embeddedWalletsAuthShare, second, body)
    expect(share.body.auth_share).toBe(wallet.auth_share)

    // Both releases are in the audit, whichever node made them.
    const activity = await deployment.call(b, routes.embeddedWalletsKeyActivity, {
      token: second.token,
    })
    expect(activity.status).toBe(200)
    expect(activity.body.data.map((r: { kind: string }) => r.kind).sort()).toEqual([
      'auth_share',
      'recovery',
    ])
  })
})
