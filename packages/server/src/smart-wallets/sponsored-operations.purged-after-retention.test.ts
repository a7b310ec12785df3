import { type Address, getAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { purgeExpired } from '../maintenance/purge.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  linkSmartWalletRow,
  paymasterParams,
  rpcUserOperation,
  setSmartWallets,
  smartWalletRpcRequest,
  startRecordingPeer,
} from './paymaster.test-helper.ts'
import { ensurePaymasterSigner } from './paymaster-key.ts'
import { SPONSORED_OPERATION_RETENTION_MS } from './sponsored-operations.ts'

// The ledger of sponsored operations is kept for its retention period (90
// days, far past the caps' 24 hours), then the purge deletes it: a row one
// millisecond short of it stays, a row at it goes, a newer row outlives it.
const CHAIN = 8453
let t: TestInstance
let bundler: Awaited<ReturnType<typeof startRecordingPeer>>
let token: string
let sender: Address
beforeAll(async () => {
  t = await getTestInstance({ purgeIntervalMs: 0 })
  bundler = await startRecordingPeer()
  const auth = await t.login('retention@example.com')
  token = auth.token ?? ''
  sender = getAddress(privateKeyToAccount(generatePrivateKey()).address)
  await linkSmartWalletRow(t, auth.user.id, sender)
  await ensurePaymasterSigner(t.server.services, t.app.id)
  await setSmartWallets(t, {
    enabled: true,
    chains: [
      {
        chain_id: CHAIN,
        bundler_url: bundler.url,
        paymaster: { kind: 'server', address: sender },
      },
    ],
  })
})
afterAll(async () => {
  await t.close()
  await bundler.close()
})

const sponsor = (nonce: bigint) =>
  smartWalletRpcRequest(t, {
    token,
    chainId: CHAIN,
    method: 'pm_getPaymasterData',
    params: paymasterParams(rpcUserOperation(sender, nonce), CHAIN),
  })

it('keeps a row for the retention period, then purges it', async () => {
  const first = t.clock.now()
  expect((await sponsor(0n)).body.result).toBeDefined()
  t.clock.advance(60_000)
  expect((await sponsor(1n)).body.result).toBeDefined()
  expect(await t.countRows('sponsored_operations')).toBe(2)

  const short = await purgeExpired(t.db, first + SPONSORED_OPERATION_RETENTION_MS - 1)
  expect(short.sponsored_operations).toBe(0)
  const due = await purgeExpired(t.db, first + SPONSORED_OPERATION_RETENTION_MS)
  expect(due.sponsored_operations).toBe(1)
  expect(await t.countRows('sponsored_operations')).toBe(1)
})
