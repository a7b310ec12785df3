import { verifyTypedData } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// eth_signTypedData_v4 on the server: the EIP-712 signature verifies for the
// wallet's address (viem verifyTypedData); a type list naming EIP712Domain is
// accepted as wallets send it.
let t: TestInstance
let user: Awaited<ReturnType<typeof userWithRealWallet>>
let walletId: string
beforeAll(async () => {
  t = await getTestInstance()
  user = await userWithRealWallet(t, 'typed@example.com')
  expect((await delegate(t, user)).status).toBe(200)
  await setPolicy(t)
  walletId = await walletIdOf(t, user.userId, user.wallet.ethereum)
})
afterAll(() => t.close())

const domain = {
  name: 'Ether Mail',
  version: '1',
  chainId: 1,
  verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
} as const
const types = {
  Person: [
    { name: 'name', type: 'string' },
    { name: 'wallet', type: 'address' },
  ],
  Mail: [
    { name: 'from', type: 'Person' },
    { name: 'to', type: 'Person' },
    { name: 'contents', type: 'string' },
  ],
}
const message = {
  from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
  to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
  contents: 'Hello, Bob!',
}

it('signs typed data that verifies for the wallet', async () => {
  const res = await rpc(t, walletId, {
    method: 'eth_signTypedData_v4',
    params: {
      typed_data: {
        domain,
        types: {
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'version', type: 'string' },
            { name: 'chainId', type: 'uint256' },
            { name: 'verifyingContract', type: 'address' },
          ],
          ...types,
        },
        primary_type: 'Mail',
        message,
      },
    },
  })
  expect(res.status).toBe(200)
  const ok = await verifyTypedData({
    address: user.wallet.ethereum,
    domain,
    types,
    primaryType: 'Mail',
    message,
    signature: res.body.data.signature,
  })
  expect(ok).toBe(true)
})

it('refuses typed data whose message does not fit its types', async () => {
  const res = await rpc(t, walletId, {
    method: 'eth_signTypedData_v4',
    params: {
      typed_data: { domain, types, primary_type: 'Mail', message: { from: 'nobody' } },
    },
  })
  expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
})
