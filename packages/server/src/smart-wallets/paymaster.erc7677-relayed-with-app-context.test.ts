import { type Address, getAddress } from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  linkSmartWalletRow,
  rpcUserOperation,
  setSmartWallets,
  smartWalletRpcRequest,
  startRecordingPeer,
} from './paymaster.test-helper.ts'

// A chain sponsored by an ERC-7677 service: pm_* of the user's own smart
// wallet are relayed to the service with the app's context, which wins over
// any context the caller sends (the app chooses its sponsorship policy);
// the caller's token never travels; another sender is refused before the
// service is asked; the service's refusal comes back as a JSON-RPC error.
const CHAIN = 10
const CONTEXT = { sponsorshipPolicyId: 'sp_app' }
let t: TestInstance
let token: string
let sender: Address
let service: Awaited<ReturnType<typeof startRecordingPeer>>
beforeAll(async () => {
  t = await getTestInstance()
  service = await startRecordingPeer((method) =>
    method === 'pm_getPaymasterData'
      ? { error: { code: -32003, message: 'Policy refused', data: { reason: 'budget' } } }
      : { result: { paymaster: '0x00000000000000000000000000000000000000aa', isFinal: false } },
  )
  await setSmartWallets(t, {
    enabled: true,
    chains: [
      {
        chain_id: CHAIN,
        bundler_url: 'http://127.0.0.1:9/rpc',
        paymaster: { kind: 'erc7677', url: service.url, context: CONTEXT },
      },
    ],
  })
  const auth = await t.login('erc7677@example.com')
  token = auth.token ?? ''
  sender = getAddress(privateKeyToAccount(generatePrivateKey()).address)
  await linkSmartWalletRow(t, auth.user.id, sender)
})
afterAll(async () => {
  await t.close()
  await service.close()
})

const pm = (method: string, from: Address, context: object) =>
  smartWalletRpcRequest(t, {
    token,
    chainId: CHAIN,
    method,
    params: [rpcUserOperation(from, 3n), entryPoint07Address, '0xa', context],
  })

it("relays pm_* with the app's context over the caller's", async () => {
  const stub = await pm('pm_getPaymasterStubData', sender, {
    sponsorshipPolicyId: 'sp_mine',
    note: 'kept',
  })
  expect(stub.body.result).toEqual({
    paymaster: '0x00000000000000000000000000000000000000aa',
    isFinal: false,
  })
  const [request] = service.requests
  expect(request?.body.method).toBe('pm_getPaymasterStubData')
  expect(request?.body.params.slice(1)).toEqual([
    entryPoint07Address,
    '0xa',
    { sponsorshipPolicyId: 'sp_app', note: 'kept' },
  ])
  expect(JSON.stringify(request?.headers)).not.toContain(token)

  const refused = await pm('pm_getPaymasterData', sender, {})
  expect(refused.body.error).toEqual({
    code: -32003,
    message: 'Policy refused',
    data: { reason: 'budget' },
  })
})

it('refuses another sender before asking the service', async () => {
  const before = service.requests.length
  const other = getAddress(privateKeyToAccount(generatePrivateKey()).address)
  const res = await pm('pm_getPaymasterStubData', other, {})
  expect(res.body.error.data.code).toBe('SMART_WALLET_SENDER_NOT_OWNED')
  expect(service.requests).toHaveLength(before)
})
