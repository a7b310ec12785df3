import type { ErrorCode } from './error-codes.ts'
import type { UserMessage } from './user-message.ts'

/** Delegated actions (spec 03 §2, §5, §8 "Delegation"; docs/delegated-actions.md). */
export const delegationErrorMessages = {
  // Spec 03 §5: the address to delegate must be linked to the current user.
  DELEGATION_ADDRESS_NOT_OWNED: {
    title: 'Address to delegate is not associated with current user.',
  },
  // Not in the spec: the sealed share did not open or did not rebuild the wallet.
  DELEGATION_SHARE_INVALID: {
    title: 'Could not enable offline access',
    detail: 'The wallet key could not be verified. Try again.',
    retryable: true,
  },
  // Not in the spec: server API answers for the app's backend (its developer reads them).
  WALLET_NOT_DELEGATED: {
    title: 'This wallet is not delegated',
    detail: 'The user has not enabled offline access for this wallet, or has revoked it.',
  },
  DELEGATION_POLICY_VIOLATION: {
    title: "The request is outside the app's delegation policy",
    detail: 'The error details name the rule it breaks.',
  },
  DELEGATION_DAILY_CAP_REACHED: {
    title: "The wallet reached the app's daily limit for delegated transactions",
    detail: 'Try again once older transactions are more than 24 hours old.',
  },
  // Spec 03 §8 "Delegation".
  DELEGATION_DECLINED: { title: 'User declined delegating actions.' },
  DELEGATION_REVOKE_DECLINED: {
    title: 'User declined revoking access to their delegated wallet.',
  },
} satisfies Partial<Record<ErrorCode, UserMessage>>
