import {
  type AccountAbstractionChain,
  deployVerifyingPaymaster08,
  sharedAccountAbstractionChain,
} from '@latchkey/server/test/account-abstraction'
import {
  type Abi,
  type Address,
  createPublicClient,
  http,
  type PrivateKeyAccount,
  type PublicClient,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

/** What the v0.8 paymaster tests share: the chain, a client on it, and a paymaster of their own. */
export interface Paymaster08Fixture {
  aa: AccountAbstractionChain
  publicClient: PublicClient
  /** The VerifyingPaymaster v0.8 deployed for `sponsorKey`, its deposit funded. */
  paymaster: { address: Address; abi: Abi }
  /** Simple7702Account, the EOAs' delegate. */
  implementation: Address
  sponsorKey: PrivateKeyAccount
}

/** The worker's ERC-4337 chain, and a v0.8 VerifyingPaymaster with a fresh signer on it. */
export async function paymaster08Fixture(): Promise<Paymaster08Fixture> {
  const aa = await sharedAccountAbstractionChain()
  if (!aa.eip7702) throw new Error('chain started without EIP-7702 contracts')
  const sponsorKey = privateKeyToAccount(generatePrivateKey())
  const publicClient = createPublicClient({
    chain: aa.chain,
    transport: http(aa.rpcUrl),
    pollingInterval: 50,
  })
  const paymaster = await deployVerifyingPaymaster08(aa.deployer, {
    verifyingSigner: sponsorKey.address,
  })
  return { aa, publicClient, paymaster, implementation: aa.eip7702.implementation, sponsorKey }
}
