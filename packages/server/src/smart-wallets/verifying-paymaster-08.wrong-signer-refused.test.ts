// The v0.8 VerifyingPaymaster pays only for operations its own signer
// sponsored: a sponsorship signed by any other key is refused by the
// EntryPoint (AA34), and the EIP-7702 upgrade riding in the same operation
// does not happen. Real peers: Anvil + EntryPoint v0.8 + Alto.
import { deployTestTokens } from '@latchkey/server/test/chains'
import { encodeFunctionData, http } from 'viem'
import { createBundlerClient, toSimple7702SmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { signAuthorization } from 'viem/actions'
import { beforeAll, expect, test } from 'vitest'
import {
  type Paymaster08Fixture,
  paymaster08Fixture,
} from './verifying-paymaster-08.test-helper.ts'
import { createVerifyingPaymaster08 } from './verifying-paymaster-08.ts'

let aa: Paymaster08Fixture['aa']
let publicClient: Paymaster08Fixture['publicClient']
let paymaster: Paymaster08Fixture['paymaster']
let implementation: Paymaster08Fixture['implementation']

beforeAll(async () => {
  ;({ aa, publicClient, paymaster, implementation } = await paymaster08Fixture())
}, 120_000)

test('a sponsorship signed by a key that is not the paymaster’s signer is refused (AA34) and nothing moves', {
  timeout: 60_000,
}, async () => {
  const owner = privateKeyToAccount(generatePrivateKey())
  const tokens = await deployTestTokens(aa.rpcUrl, { mintTo: owner.address })
  const account = await toSimple7702SmartAccount({ client: publicClient, owner, implementation })
  const impostor = createVerifyingPaymaster08({
    address: paymaster.address,
    signer: privateKeyToAccount(generatePrivateKey()),
  })
  const bundler = createBundlerClient({
    account,
    client: publicClient,
    transport: http(aa.bundlerUrl),
    paymaster: impostor,
    pollingInterval: 50,
  })
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  const depositBefore = await publicClient.readContract({
    ...paymaster,
    functionName: 'getDeposit',
  })
  const authorization = await signAuthorization(publicClient, {
    account: owner,
    contractAddress: implementation,
    nonce: await publicClient.getTransactionCount({ address: owner.address }),
  })

  await expect(
    bundler.sendUserOperation({
      calls: [
        {
          to: tokens.erc20.address,
          data: encodeFunctionData({
            abi: tokens.erc20.abi,
            functionName: 'transfer',
            args: [recipient, 1n],
          }),
        },
      ],
      authorization,
    }),
  ).rejects.toThrow(/AA34 signature error/)

  expect(
    await publicClient.readContract({
      ...tokens.erc20,
      functionName: 'balanceOf',
      args: [recipient],
    }),
  ).toBe(0n)
  expect(await publicClient.getCode({ address: owner.address })).toBeUndefined()
  expect(await publicClient.readContract({ ...paymaster, functionName: 'getDeposit' })).toBe(
    depositBefore,
  )
})
