import { SIMPLE_7702_ACCOUNT_ADDRESS } from '@latchkey/protocol'
import type { UserOperation } from 'viem/account-abstraction'
import { relayJsonRpc } from './relay.ts'
import { SmartWalletRpcError } from './rpc-errors.ts'

/*
 * An EIP-7702 account's sponsorship binds the calls as Simple7702Account
 * reads them (call-targets.ts), but the paymaster's hash covers only the
 * `0x7702` marker, not the contract the EOA delegates to
 * (docs/smart-wallets.md "Sponsoring EIP-7702 accounts"). So the server
 * signs only for an operation whose authorization names Simple7702Account,
 * or, without one, for an EOA whose code already points to it: a delegate of
 * the user's own choosing could read the same callData as other calls.
 */

const DELEGATION_PREFIX = '0xef0100'

const refused = (delegate: string) =>
  new SmartWalletRpcError(
    'SPONSORSHIP_DELEGATE_NOT_ALLOWED',
    `The app sponsors EIP-7702 accounts delegating to Simple7702Account only, not ${delegate}.`,
    { delegate },
  )

/** The delegate an operation's authorization names (RPC `eip7702Auth`, or viem's `authorization`). */
function namedDelegate(userOperation: UserOperation): string | undefined {
  const op = userOperation as {
    eip7702Auth?: { address?: unknown } | null
    authorization?: { address?: unknown } | null
  }
  const address = op.eip7702Auth?.address ?? op.authorization?.address
  return typeof address === 'string' ? address : undefined
}

/**
 * Refuses to sponsor a `simple_7702` operation unless its EOA is (or becomes
 * in it) a Simple7702Account. Without an authorization the sender's code is
 * read from the chain's node (`rpcUrl`, the server's LATCHKEY_RPC_URLS).
 *
 * @example
 * await assertAuditedDelegate(userOperation, chainRpcUrls[chainId])
 */
export async function assertAuditedDelegate(
  userOperation: UserOperation,
  rpcUrl: string | undefined,
): Promise<void> {
  const expected = SIMPLE_7702_ACCOUNT_ADDRESS.toLowerCase()
  const named = namedDelegate(userOperation)
  if (named !== undefined) {
    if (named.toLowerCase() !== expected) throw refused(named)
    return
  }
  if (!rpcUrl)
    throw new SmartWalletRpcError(
      'SPONSORSHIP_UNAVAILABLE',
      "The server needs this chain's RPC URL (LATCHKEY_RPC_URLS) to sponsor an EIP-7702 account.",
    )
  const answer = await relayJsonRpc(
    rpcUrl,
    'eth_getCode',
    [userOperation.sender, 'latest'],
    'PAYMASTER_UNAVAILABLE',
  )
  const code = 'result' in answer && typeof answer.result === 'string' ? answer.result : ''
  if (code.toLowerCase() !== `${DELEGATION_PREFIX}${expected.slice(2)}`)
    throw refused(code.startsWith(DELEGATION_PREFIX) ? `0x${code.slice(8)}` : 'no delegate')
}
