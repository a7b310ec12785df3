import { type Address, getAddress } from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
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

// A user can only have their own smart wallet sponsored or sent: an
// operation whose sender is another user's linked smart wallet, or a user
// with no smart wallet at all, is refused (JSON-RPC -32003
// SMART_WALLET_SENDER_NOT_OWNED) for pm_getPaymasterStubData,
// pm_getPaymasterData and eth_sendUserOperation. Nothing reaches the
// bundler and nothing is reserved.
const CHAIN = 8453
const newAddress = (): Address => getAddress(privateKeyToAccount(generatePrivateKey()).address)
let t: TestInstance
let bundler: Awaited<ReturnType<typeof startRecordingPeer>>
const alice = { token: '', sender: newAddress() }
const bob = { token: '', sender: newAddress() }
let carolToken: string
beforeAll(async () => {
  t = await getTestInstance()
  bundler = await startRecordingPeer()
  await ensurePaymasterSigner(t.server.services, t.app.id)
  await setSmartWallets(t, {
    enabled: true,
    type: 'simple',
    chains: [
      {
        chain_id: CHAIN,
        bundler_url: bundler.url,
        paymaster: { kind: 'server', address: newAddress() },
      },
    ],
  })
  for (const [user, email] of [
    [alice, 'alice@example.com'],
    [bob, 'bob@example.com'],
  ] as const) {
    const auth = await t.login(email)
    user.token = auth.token ?? ''
    await linkSmartWalletRow(t, auth.user.id, user.sender)
  }
  carolToken = (await t.login('carol@example.com')).token ?? ''
})
afterAll(async () => {
  await t.close()
  await bundler.close()
})

const calls = (sender: Address) => [
  {
    method: 'pm_getPaymasterStubData',
    params: paymasterParams(rpcUserOperation(sender, 0n), CHAIN),
  },
  { method: 'pm_getPaymasterData', params: paymasterParams(rpcUserOperation(sender, 0n), CHAIN) },
  { method: 'eth_sendUserOperation', params: [rpcUserOperation(sender, 0n), entryPoint07Address] },
]

it("refuses another user's smart wallet as the sender", async () => {
  for (const call of calls(alice.sender)) {
    const res = await smartWalletRpcRequest(t, { token: bob.token, chainId: CHAIN, ...call })
    expect({ method: call.method, status: res.status, error: res.body.error }).toMatchObject({
      method: call.method,
      status: 200,
      error: { code: -32003, data: { code: 'SMART_WALLET_SENDER_NOT_OWNED' } },
    })
  }
  // The address in another case is the same account.
  const res = await smartWalletRpcRequest(t, {
    token: bob.token,
    chainId: CHAIN,
    method: 'pm_getPaymasterData',
    params: paymasterParams(rpcUserOperation(alice.sender.toLowerCase() as Address, 0n), CHAIN),
  })
  expect(res.body.error.data.code).toBe('SMART_WALLET_SENDER_NOT_OWNED')
  expect(bundler.requests).toEqual([])
  expect(await t.countRows('sponsored_operations')).toBe(0)
})

it('refuses a user who has no smart wallet', async () => {
  for (const call of calls(alice.sender)) {
    const res = await smartWalletRpcRequest(t, { token: carolToken, chainId: CHAIN, ...call })
    expect(res.body.error.data.code).toBe('SMART_WALLET_SENDER_NOT_OWNED')
  }
  expect(bundler.requests).toEqual([])
})

it('the owner of the smart wallet is served (the control)', async () => {
  for (const call of calls(alice.sender)) {
    const res = await smartWalletRpcRequest(t, { token: alice.token, chainId: CHAIN, ...call })
    expect({ method: call.method, error: res.body.error }).toEqual({
      method: call.method,
      error: undefined,
    })
  }
  expect(bundler.requests.map((r) => r.body.method)).toEqual([
    'pimlico_getUserOperationGasPrice',
    'eth_sendUserOperation',
  ])
  expect(await t.countRows('sponsored_operations')).toBe(1)
})
