import { type Address, numberToHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  type AccountAbstractionChain,
  sharedAccountAbstractionChain,
} from '../test/account-abstraction/index.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { GAS_PRICE_CEILING_FACTOR } from './gas-price-ceiling.ts'
import {
  linkSmartWalletRow,
  paymasterParams,
  rpcUserOperation,
  smartWalletRpcRequest,
  sponsorOnChain,
} from './paymaster.test-helper.ts'

// The paymaster signs fees the EntryPoint then pays the bundler from its
// deposit, so a user who got a signature for an outsized priority fee could
// submit it through a bundler of their own and keep the difference. The
// server refuses fees above GAS_PRICE_CEILING_FACTOR × the app's bundler's
// 'fast' price (Alto's pimlico_getUserOperationGasPrice here), before any
// signature or reservation; fees at the bundler's price are signed.
let aa: AccountAbstractionChain
let t: TestInstance
let token: string
let sender: Address
let fast: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
beforeAll(async () => {
  aa = await sharedAccountAbstractionChain()
  t = await getTestInstance()
  await sponsorOnChain(t, aa)
  const auth = await t.login('fees@example.com')
  token = auth.token ?? ''
  sender = privateKeyToAccount(generatePrivateKey()).address
  await linkSmartWalletRow(t, auth.user.id, sender)
  const res = await fetch(aa.bundlerUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'pimlico_getUserOperationGasPrice' }),
  })
  const price = ((await res.json()) as { result: { fast: Record<string, string> } }).result.fast
  fast = {
    maxFeePerGas: BigInt(price.maxFeePerGas ?? 0),
    maxPriorityFeePerGas: BigInt(price.maxPriorityFeePerGas ?? 0),
  }
}, 120_000)
afterAll(async () => {
  await t?.close()
  await aa?.stop()
})

const sponsor = (nonce: bigint, fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }) =>
  smartWalletRpcRequest(t, {
    token,
    chainId: aa.chain.id,
    method: 'pm_getPaymasterData',
    params: paymasterParams(
      {
        ...rpcUserOperation(sender, nonce),
        maxFeePerGas: numberToHex(fees.maxFeePerGas),
        maxPriorityFeePerGas: numberToHex(fees.maxPriorityFeePerGas),
      },
      aa.chain.id,
    ),
  })

it("refuses fees above the ceiling of the bundler's price, signs fees at it", async () => {
  expect(fast.maxFeePerGas).toBeGreaterThan(0n)
  const over = GAS_PRICE_CEILING_FACTOR + 1n
  for (const fees of [
    { ...fast, maxPriorityFeePerGas: fast.maxPriorityFeePerGas * over },
    { ...fast, maxFeePerGas: fast.maxFeePerGas * over },
  ]) {
    const res = await sponsor(0n, fees)
    expect(res.body.error).toMatchObject({
      code: -32003,
      data: { code: 'SPONSORSHIP_GAS_PRICE_TOO_HIGH', rule: 'gas_price' },
    })
  }
  expect(await t.countRows('sponsored_operations')).toBe(0)

  const res = await sponsor(0n, fast)
  expect(res.body.result.paymasterData).toMatch(/^0x[0-9a-f]+$/)
  expect(await t.countRows('sponsored_operations')).toBe(1)
})
