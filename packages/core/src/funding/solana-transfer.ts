import { formatUserMessage } from '@latchkey/protocol/errors'
import {
  type Address,
  type AddressesByLookupTableAddress,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createNoopSigner,
  createTransactionMessage,
  fetchAddressesForLookupTables,
  getBase58Decoder,
  getTransactionDecoder,
  getTransactionEncoder,
  type Instruction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token'
import { LatchkeyError } from '../errors.ts'
import { prepareSolanaTransaction } from '../transactions/solana/prepare.ts'
import type { SolanaClient } from '../transactions/solana/rpc.ts'

/** An SPL token account's size: its rent is what creating the recipient's account costs. */
const TOKEN_ACCOUNT_SIZE = 165n

/** The SPL token to move; absent: SOL. */
export interface SolanaFundingToken {
  mint: string
  decimals: number
}

export interface BuildSolanaFundingTransferParameters {
  rpc: SolanaClient
  /** The external wallet that pays and signs (base58). */
  from: string
  /** The wallet being funded. */
  to: string
  /** Base units: lamports for SOL, the mint's smallest unit for a token. */
  amount: bigint
  token?: SolanaFundingToken
}

/** A funding transaction ready for the paying wallet to sign. */
export interface SolanaFundingTransaction {
  /** Unsigned v0 wire transaction on a recent blockhash; `from` pays the fee. */
  transaction: Uint8Array
  /** The network fee, lamports. */
  fee: bigint
  /** Lamports leaving `from` in all: the fee, SOL sent, a new token account's rent. */
  lamports: bigint
}

const notEnough = (wallet: string) =>
  new LatchkeyError(
    'FUNDING_WALLET_INSUFFICIENT_FUNDS',
    formatUserMessage('FUNDING_WALLET_INSUFFICIENT_FUNDS', { address: wallet }).title,
    { details: { address: wallet } },
  )

const readFailed = (cause: unknown) =>
  cause instanceof LatchkeyError
    ? cause
    : new LatchkeyError('TRANSACTION_PREPARE_ERROR', undefined, { cause })

/** Instructions as one unsigned v0 wire transaction, paid by `feePayer`, on the latest blockhash. */
async function compile(
  rpc: SolanaClient,
  feePayer: Address,
  instructions: Instruction[],
  lookupTables?: AddressesByLookupTableAddress,
): Promise<Uint8Array> {
  const { value: lifetime } = await rpc.getLatestBlockhash().send()
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  )
  const compressed =
    lookupTables && Object.keys(lookupTables).length > 0
      ? compressTransactionMessageUsingAddressLookupTables(message, lookupTables)
      : message
  return new Uint8Array(getTransactionEncoder().encode(compileTransaction(compressed)))
}

/** The SPL part: the recipient's associated account (created if missing) and a TransferChecked. */
async function tokenTransfer(
  rpc: SolanaClient,
  payer: Address,
  recipient: Address,
  amount: bigint,
  token: SolanaFundingToken,
): Promise<{ instructions: Instruction[]; rent: bigint }> {
  const mint = address(token.mint)
  const { value: mintAccount } = await rpc.getAccountInfo(mint, { encoding: 'base64' }).send()
  if (!mintAccount) throw new LatchkeyError('TOKEN_DETAILS_FAILED', `No mint at ${token.mint}`)
  // The mint's owner is its program: Token or Token-2022.
  const tokenProgram = mintAccount.owner
  const [[destination], held] = await Promise.all([
    findAssociatedTokenPda({ owner: recipient, mint, tokenProgram }),
    // The payer's token accounts for the mint: the associated one, or any other it holds.
    rpc.getTokenAccountsByOwner(payer, { mint }, { encoding: 'jsonParsed' }).send(),
  ])
  let source: Address | undefined
  let sourceBalance = 0n
  for (const { pubkey, account } of held.value) {
    const balance = BigInt(account.data.parsed.info.tokenAmount.amount)
    if (balance > sourceBalance) [source, sourceBalance] = [pubkey, balance]
  }
  if (!source || sourceBalance < amount) throw notEnough(payer)
  const destinationAccount = await rpc.getAccountInfo(destination, { encoding: 'base64' }).send()
  const rent = destinationAccount.value
    ? 0n
    : await rpc.getMinimumBalanceForRentExemption(TOKEN_ACCOUNT_SIZE).send()
  const signer = createNoopSigner(payer)
  return {
    rent,
    instructions: [
      // Idempotent: a no-op when the account exists (it may appear between read and send).
      getCreateAssociatedTokenIdempotentInstruction({
        payer: signer,
        ata: destination,
        owner: recipient,
        mint,
        tokenProgram,
      }),
      getTransferCheckedInstruction(
        { source, mint, destination, authority: signer, amount, decimals: token.decimals },
        { programAddress: tokenProgram },
      ),
    ],
  }
}

/**
 * Spec 03 "Transfer from wallet" on Solana: the transaction that moves
 * `amount` from an external wallet to the funded one — a System transfer
 * for SOL, or for an SPL token (USDC) the recipient's associated token
 * account created if missing (the idempotent instruction) and a
 * TransferChecked from the payer's token account holding the most — on the latest
 * blockhash, `from` paying the fee. A wallet that cannot pay the amount, the
 * fee and a new token account's rent is refused before it is asked:
 * FUNDING_WALLET_INSUFFICIENT_FUNDS ('Wallet {address} does not have enough
 * funds.'). The node unreachable: TRANSACTION_PREPARE_ERROR.
 *
 * @example
 * const { transaction } = await buildSolanaFundingTransfer({ rpc, from: phantom.address,
 *   to: embedded.address, amount: 10_000_000n, token: { mint: USDC_SOLANA_MINT.devnet, decimals: 6 } })
 * await sendSolanaTransaction({ rpc, transaction, sign: (wire) => phantom.signTransaction(wire) })
 */
export async function buildSolanaFundingTransfer({
  rpc,
  from,
  to,
  amount,
  token,
}: BuildSolanaFundingTransferParameters): Promise<SolanaFundingTransaction> {
  if (amount <= 0n) throw new LatchkeyError('FUNDING_INVALID_DATA', 'The amount must be above 0')
  const payer = address(from)
  const recipient = address(to)
  try {
    const { instructions, rent } = token
      ? await tokenTransfer(rpc, payer, recipient, amount, token)
      : {
          rent: 0n,
          instructions: [
            getTransferSolInstruction({
              source: createNoopSigner(payer),
              destination: recipient,
              amount,
            }),
          ],
        }
    const transaction = await compile(rpc, payer, instructions)
    // The fee, the balance, and the lamports the System transfer sends.
    const prepared = await prepareSolanaTransaction({ rpc, wallet: from, transaction })
    const lamports = prepared.fee + rent + (token ? 0n : amount)
    if (prepared.balance < lamports) throw notEnough(from)
    return { transaction, fee: prepared.fee, lamports }
  } catch (error) {
    throw readFailed(error)
  }
}

export interface BuildSolanaInstructionsTransactionParameters {
  rpc: SolanaClient
  /** The wallet that signs and pays the fee. */
  feePayer: string
  instructions: Instruction[]
  /** v0 lookup tables the instructions' accounts may be found in (read from the node). */
  addressLookupTableAddresses?: readonly string[]
}

/**
 * A bridge deposit from Solana (spec 03 §7 "Bridging", Solana → Ethereum):
 * the quote's instructions (`toSolanaInstructions`) in one v0 transaction on
 * the latest blockhash, compressed with the quote's lookup tables. Refused
 * before the wallet is asked when it cannot pay the fee and the lamports it
 * sends: BRIDGE_INSUFFICIENT_BALANCE.
 *
 * @example
 * const { transaction } = await buildSolanaInstructionsTransaction({ rpc, feePayer: wallet.address,
 *   instructions: toSolanaInstructions(quote.tx), addressLookupTableAddresses: quote.tx.addressLookupTableAddresses })
 */
export async function buildSolanaInstructionsTransaction({
  rpc,
  feePayer,
  instructions,
  addressLookupTableAddresses = [],
}: BuildSolanaInstructionsTransactionParameters): Promise<SolanaFundingTransaction> {
  try {
    const tables =
      addressLookupTableAddresses.length > 0
        ? await fetchAddressesForLookupTables(
            addressLookupTableAddresses.map((table) => address(table)),
            rpc,
          )
        : undefined
    const transaction = await compile(rpc, address(feePayer), instructions, tables)
    const prepared = await prepareSolanaTransaction({ rpc, wallet: feePayer, transaction })
    if (!prepared.hasFunds) throw new LatchkeyError('BRIDGE_INSUFFICIENT_BALANCE')
    const sent = prepared.instructions.reduce(
      (sum, i) =>
        (i.type === 'sol-transfer' || i.type === 'create-account') && i.from === feePayer
          ? sum + i.lamports
          : sum,
      0n,
    )
    return { transaction, fee: prepared.fee, lamports: prepared.fee + sent }
  } catch (error) {
    throw readFailed(error)
  }
}

/**
 * The transaction id of a signed wire transaction: its first (fee payer's)
 * signature, base58 — known once the wallet signed, before it lands.
 */
export function solanaSignatureOf(signed: Uint8Array): string {
  const [first] = Object.values(getTransactionDecoder().decode(signed).signatures)
  if (!first) throw new LatchkeyError('TRANSACTION_SIGN_FAILED', 'The fee payer did not sign')
  return getBase58Decoder().decode(first)
}
