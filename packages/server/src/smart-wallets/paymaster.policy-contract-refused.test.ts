import { type Address, encodeFunctionData } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  type AccountAbstractionChain,
  sharedAccountAbstractionChain,
} from '../test/account-abstraction/index.ts'
import { deployTestTokens, type TestTokens } from '../test/chains.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  sendCalls,
  setSmartWallets,
  sponsorOnChain,
  userWithSmartAccount,
} from './paymaster.test-helper.ts'

// The sponsorship policy's contracts list, with real peers: an operation
// whose call goes to a contract outside the list gets no paymaster data
// (JSON-RPC -32003 SPONSORSHIP_CONTRACT_NOT_ALLOWED), so nothing is sent,
// nothing is reserved and the account stays undeployed; the same call to a
// listed contract is sponsored.
let aa: AccountAbstractionChain
let t: TestInstance
let paymaster: Address
const allowed = privateKeyToAccount(generatePrivateKey()).address.toLowerCase()
beforeAll(async () => {
  aa = await sharedAccountAbstractionChain()
  t = await getTestInstance()
  ;({ paymaster } = await sponsorOnChain(t, aa, { contracts: [allowed] }))
}, 120_000)
afterAll(async () => {
  await t?.close()
  await aa?.stop()
})

const transfer = (tokens: TestTokens, to: Address) => ({
  to: tokens.erc20.address,
  data: encodeFunctionData({ abi: tokens.erc20.abi, functionName: 'transfer', args: [to, 1n] }),
})

it('refuses to sponsor a call to a contract not in the list; allows it once listed', {
  timeout: 60_000,
}, async () => {
  const { client } = await userWithSmartAccount(t, aa, 'policy@example.com')
  const tokens = await deployTestTokens(aa.rpcUrl, { mintTo: client.account.address })
  const recipient = privateKeyToAccount(generatePrivateKey()).address

  await expect(sendCalls(client, [transfer(tokens, recipient)])).rejects.toThrow(
    `The app does not sponsor calls to ${tokens.erc20.address.toLowerCase()}`,
  )
  expect(await client.account.isDeployed()).toBe(false)
  expect(await t.countRows('sponsored_operations')).toBe(0)

  await setSmartWallets(t, {
    enabled: true,
    type: 'simple',
    chains: [
      {
        chain_id: aa.chain.id,
        bundler_url: aa.bundlerUrl,
        paymaster: { kind: 'server', address: paymaster },
      },
    ],
    sponsorship_policy: { contracts: [allowed, tokens.erc20.address.toLowerCase()] },
  })
  const receipt = await sendCalls(client, [transfer(tokens, recipient)])
  expect(receipt.success).toBe(true)
  expect(receipt.paymaster).toBe(paymaster)
})
