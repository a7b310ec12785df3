import { SIMPLE_7702_ACCOUNT_ADDRESS } from '@latchkey/protocol'
import { type Address, concat, encodeFunctionData, numberToHex } from 'viem'
import {
  createBundlerClient,
  createPaymasterClient,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { signAuthorization } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type AccountAbstractionChain,
  deployVerifyingPaymaster08,
  sharedAccountAbstractionChain,
} from '../test/account-abstraction/index.ts'
import { deployTestTokens } from '../test/chains.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  linkSmartWalletRow,
  publicClientOf,
  routeTransport,
  rpcUserOperation,
  setSmartWallets,
  smartWalletRpcRequest,
} from './paymaster.test-helper.ts'
import { ensurePaymasterSigner } from './paymaster-key.ts'
import { VERIFYING_PAYMASTER_08_ENTRY_POINT } from './verifying-paymaster-08.ts'

// Sponsored gas for an EIP-7702 wallet through the server's route (real
// peers: Anvil on Prague, EntryPoint v0.8, Simple7702Account, Alto, and the
// VerifyingPaymaster built for v0.8 with the app's sealed signer). The
// paymaster's hash covers the `0x7702` marker, not the delegate, so the
// server sponsors only an EOA that delegates (or is being upgraded) to
// Simple7702Account: any other delegate could read the same calls otherwise.
let aa: AccountAbstractionChain
let t: TestInstance
let paymaster: Address

beforeAll(async () => {
  aa = await sharedAccountAbstractionChain()
  t = await getTestInstance({ chainRpcUrls: { [aa.chain.id]: aa.rpcUrl } })
  const { address: signer } = await ensurePaymasterSigner(t.server.services, t.app.id)
  ;({ address: paymaster } = await deployVerifyingPaymaster08(aa.deployer, {
    verifyingSigner: signer,
  }))
  await setSmartWallets(t, {
    enabled: true,
    type: 'simple_7702',
    chains: [
      {
        chain_id: aa.chain.id,
        bundler_url: aa.bundlerUrl,
        paymaster: { kind: 'server', address: paymaster },
      },
    ],
  })
}, 120_000)
afterAll(async () => {
  await t?.close()
  await aa?.stop()
})

/** A signed-in user whose embedded wallet (a key the test holds) is linked as its own smart wallet. */
async function userWithEoa(email: string) {
  const auth = await t.login(email)
  const owner = privateKeyToAccount(generatePrivateKey())
  await linkSmartWalletRow(t, auth.user.id, owner.address, 'simple_7702')
  return { token: auth.token ?? '', owner }
}

const delegateRefusal = (res: { body: { error?: { data?: { code?: string } } } }) =>
  res.body.error?.data?.code

describe('sponsoring an EIP-7702 wallet through the route', { timeout: 60_000 }, () => {
  it('an EOA holding 0 ETH is upgraded and sends in one sponsored operation, then again without the authorization', async () => {
    const publicClient = publicClientOf(aa)
    const { token, owner } = await userWithEoa('eip7702-sponsored@example.com')
    const tokens = await deployTestTokens(aa.rpcUrl, { mintTo: owner.address })
    const account = await toSimple7702SmartAccount({
      client: publicClient,
      owner,
      implementation: SIMPLE_7702_ACCOUNT_ADDRESS,
    })
    const transport = routeTransport(t, () => token, aa.chain.id)
    const bundler = createBundlerClient({
      account,
      client: publicClient,
      transport,
      paymaster: createPaymasterClient({ transport }),
      pollingInterval: 50,
    })
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const transfer = (amount: bigint) => ({
      to: tokens.erc20.address,
      data: encodeFunctionData({
        abi: tokens.erc20.abi,
        functionName: 'transfer',
        args: [recipient, amount],
      }),
    })
    const authorization = await signAuthorization(publicClient, {
      account: owner,
      contractAddress: SIMPLE_7702_ACCOUNT_ADDRESS,
      nonce: await publicClient.getTransactionCount({ address: owner.address }),
    })

    const first = await bundler.waitForUserOperationReceipt({
      hash: await bundler.sendUserOperation({ calls: [transfer(5n)], authorization }),
    })
    expect(first.success).toBe(true)
    expect(first.paymaster).toBe(paymaster)
    expect(await publicClient.getCode({ address: owner.address })).toBe(
      concat(['0xef0100', SIMPLE_7702_ACCOUNT_ADDRESS]).toLowerCase(),
    )
    // No authorization now: the server reads the EOA's code on the chain's node.
    const second = await bundler.waitForUserOperationReceipt({
      hash: await bundler.sendUserOperation({ calls: [transfer(7n)] }),
    })
    expect(second.success).toBe(true)
    expect(second.paymaster).toBe(paymaster)
    expect(await publicClient.getBalance({ address: owner.address })).toBe(0n)
  })

  it('refuses an authorization naming another delegate, and an EOA that delegates to none', async () => {
    const { token, owner } = await userWithEoa('eip7702-other-delegate@example.com')
    const other = privateKeyToAccount(generatePrivateKey()).address
    const request = (userOperation: object) =>
      smartWalletRpcRequest(t, {
        token,
        chainId: aa.chain.id,
        method: 'pm_getPaymasterData',
        params: [userOperation, VERIFYING_PAYMASTER_08_ENTRY_POINT, numberToHex(aa.chain.id), {}],
      })
    const operation = rpcUserOperation(owner.address, 0n)
    const eip7702Auth = (address: Address) => ({
      address,
      chainId: numberToHex(aa.chain.id),
      nonce: '0x0',
      r: `0x${'11'.repeat(32)}`,
      s: `0x${'22'.repeat(32)}`,
      yParity: '0x0',
    })

    const renamed = await request({ ...operation, eip7702Auth: eip7702Auth(other) })
    expect(delegateRefusal(renamed)).toBe('SPONSORSHIP_DELEGATE_NOT_ALLOWED')
    expect(renamed.body.result).toBeUndefined()
    const undelegated = await request(operation)
    expect(delegateRefusal(undelegated)).toBe('SPONSORSHIP_DELEGATE_NOT_ALLOWED')
    // Nothing was reserved under the caps for either.
    const rows = await t.db
      .selectFrom('sponsored_operations')
      .select('sender')
      .where('sender', '=', owner.address.toLowerCase())
      .execute()
    expect(rows).toEqual([])
  })
})
