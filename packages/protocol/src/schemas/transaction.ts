import { z } from 'zod'
import { base64urlSchema, ethereumAddressSchema } from './wallet.ts'

/** A quantity as JSON-RPC writes it: 0x-hex, no leading zeros needed, at most 256 bits. */
export const hexQuantitySchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/, 'Expected a hex quantity')

/** Call data: even-length 0x-hex, at most 128 KiB (a node's transaction size limit). */
export const hexDataSchema = z
  .string()
  .max(2 + 2 * 128 * 1024)
  .regex(/^0x(?:[0-9a-fA-F]{2})*$/, 'Expected 0x-hex bytes')

/**
 * An Ethereum transaction for the enclave to sign (`eth_signTransaction`):
 * every field filled in by the host (core's prepare step), so what the user
 * confirmed is exactly what is signed. The enclave checks `from` is the wallet.
 */
export const ethereumTransactionWireSchema = z
  .object({
    from: ethereumAddressSchema,
    chainId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    type: z.enum(['eip1559', 'legacy']),
    to: ethereumAddressSchema.nullable(),
    data: hexDataSchema.optional(),
    value: hexQuantitySchema,
    nonce: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    gas: hexQuantitySchema,
    maxFeePerGas: hexQuantitySchema.optional(),
    maxPriorityFeePerGas: hexQuantitySchema.optional(),
    gasPrice: hexQuantitySchema.optional(),
  })
  .refine(
    (tx) =>
      tx.type === 'eip1559'
        ? tx.maxFeePerGas !== undefined && tx.maxPriorityFeePerGas !== undefined
        : tx.gasPrice !== undefined,
    { message: 'eip1559 needs maxFeePerGas and maxPriorityFeePerGas; legacy needs gasPrice' },
  )
export type EthereumTransactionWire = z.infer<typeof ethereumTransactionWireSchema>

/**
 * A Solana wire transaction (signature slots, then the message; legacy or
 * v0) for the enclave to sign. 1232 bytes is Solana's packet limit.
 */
export const solanaTransactionWireSchema = base64urlSchema.refine((text) => text.length <= 1700, {
  message: 'A Solana transaction is at most 1232 bytes',
})
