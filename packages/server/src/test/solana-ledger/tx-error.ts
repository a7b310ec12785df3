/**
 * LiteSVM's transaction errors (native objects and enum numbers) in the JSON
 * a Solana validator answers with (`"BlockhashNotFound"`,
 * `{"InstructionError":[0,{"Custom":1}]}`), and the text its `Display` gives
 * (what a preflight failure's message says).
 */

/** A transaction error as the Solana JSON-RPC serialises it. */
export type TransactionErrorJson = string | Record<string, unknown>

// The order of LiteSVM's `TransactionErrorFieldless` and `InstructionErrorFieldless` enums.
const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
]
const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
]

type Native = Record<string, unknown> & { constructor: { name: string } }

function instructionErrorJson(err: unknown): TransactionErrorJson {
  if (typeof err === 'number') return INSTRUCTION_ERRORS[err] ?? 'GenericError'
  const e = err as Native
  if (typeof e.code === 'number') return { Custom: e.code }
  if (typeof e.msg === 'string') return { BorshIoError: e.msg }
  return 'GenericError'
}

/** LiteSVM's `FailedTransactionMetadata.err()` as validator JSON. */
export function transactionErrorJson(err: unknown): TransactionErrorJson {
  if (typeof err === 'number') return TRANSACTION_ERRORS[err] ?? 'SanitizeFailure'
  const e = err as Native
  const name = e.constructor.name
  if (typeof e.err === 'function') {
    return { InstructionError: [e.index, instructionErrorJson((e.err as () => unknown).call(e))] }
  }
  if (name.endsWith('DuplicateInstruction')) return { DuplicateInstruction: e.index }
  if (name.endsWith('InsufficientFundsForRent')) {
    return { InsufficientFundsForRent: { account_index: e.accountIndex } }
  }
  if (name.endsWith('ProgramExecutionTemporarilyRestricted')) {
    return { ProgramExecutionTemporarilyRestricted: { account_index: e.accountIndex } }
  }
  return 'SanitizeFailure'
}

/** Errors after which the transaction landed: it ran, and the fee was charged. */
export function landedWith(err: TransactionErrorJson): boolean {
  return typeof err === 'object' && !('DuplicateInstruction' in err)
}

const TRANSACTION_TEXT: Record<string, string> = {
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  ProgramAccountNotFound: 'Attempt to load a program that does not exist',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  InvalidAccountForFee: 'This account may not be used to pay transaction fees',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  SignatureFailure: 'Transaction did not pass signature verification',
}
const INSTRUCTION_TEXT: Record<string, string> = {
  GenericError: 'generic instruction error',
  InvalidArgument: 'invalid program argument',
  InvalidInstructionData: 'invalid instruction data',
  InvalidAccountData: 'invalid account data for instruction',
  InsufficientFunds: 'insufficient funds for instruction',
  IncorrectProgramId: 'incorrect program id for instruction',
  MissingRequiredSignature: 'missing required signature for instruction',
  AccountAlreadyInitialized: 'instruction requires an uninitialized account',
  UninitializedAccount: 'instruction requires an initialized account',
}

const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()

function instructionText(err: unknown): string {
  if (typeof err === 'string') return INSTRUCTION_TEXT[err] ?? words(err)
  const e = err as Record<string, unknown>
  if (typeof e.Custom === 'number') return `custom program error: 0x${e.Custom.toString(16)}`
  return 'Failed to serialize or deserialize account data'
}

/** The validator's text for an error ("Error processing Instruction 0: custom program error: 0x1"). */
export function transactionErrorText(err: TransactionErrorJson): string {
  if (typeof err === 'string') return TRANSACTION_TEXT[err] ?? words(err)
  if (Array.isArray(err.InstructionError)) {
    const [index, inner] = err.InstructionError
    return `Error processing Instruction ${index}: ${instructionText(inner)}`
  }
  const rent = err.InsufficientFundsForRent as { account_index: number } | undefined
  if (rent) {
    return `Transaction results in an account (${rent.account_index}) with insufficient funds for rent`
  }
  return words(Object.keys(err)[0] ?? 'error')
}
