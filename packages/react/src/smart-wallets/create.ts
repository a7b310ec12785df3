import { createEmbeddedSmartWallet } from '@latchkey/core'
import type { TypedDataDefinition } from 'viem'
import type { CreateSmartWallet } from './registry.ts'

/**
 * Core's smart wallet for the owner on the chain: the counterfactual
 * address, the bundler and paymaster through the server's rpc route, and
 * the link to the user when they have none yet.
 */
export const createSmartWallet: CreateSmartWallet = async (instance, { owner, chain }) => {
  const wallet = await createEmbeddedSmartWallet(instance.client, {
    wallet: owner,
    chain: chain.chain,
  })
  return {
    address: wallet.address,
    type: wallet.type,
    version: wallet.version,
    chain: wallet.chain,
    sponsored: wallet.sponsored,
    isDeployed: () => wallet.isDeployed(),
    prepareCalls: (calls) => wallet.prepareCalls(calls),
    sendCalls: (calls) => wallet.sendCalls(calls),
    signMessage: (message) => wallet.signMessage(message),
    // The sign screen's typed data is eth_signTypedData_v4's JSON shape, the object viem signs.
    signTypedData: (typedData) => wallet.signTypedData(typedData as unknown as TypedDataDefinition),
  }
}
