import { describe, expect, it } from 'vitest'
import { entropyIdOf, secretFromMnemonic } from './derive.ts'
import { generateHdSecret, importEthereumKey, importSolanaKey } from './secret.ts'
import { combineShares, reconstructAndVerify, splitSecret } from './shares.ts'

const ANVIL = 'test test test test test test test test test test test junk'
const code = (c: string) => expect.objectContaining({ name: 'EnclaveError', code: c })

describe('splitSecret / combineShares', () => {
  it.each([
    ['hd', generateHdSecret()],
    ['ethereum-key', importEthereumKey(crypto.getRandomValues(new Uint8Array(32)))],
    ['solana-key', importSolanaKey(crypto.getRandomValues(new Uint8Array(32)))],
  ])('round-trips a %s secret, in either order', async (_, secret) => {
    const { deviceShare, authShare } = await splitSecret(secret)
    expect(deviceShare.length).toBe(secret.payload.length + 2) // kind byte + x-coordinate
    expect(authShare.length).toBe(deviceShare.length)
    expect(await combineShares(deviceShare, authShare)).toEqual(secret)
    expect(await combineShares(authShare, deviceShare)).toEqual(secret)
  })

  it('gives fresh shares on every split', async () => {
    const secret = generateHdSecret()
    const first = await splitSecret(secret)
    const second = await splitSecret(secret)
    expect(first.deviceShare).not.toEqual(second.deviceShare)
    expect(first.authShare).not.toEqual(second.authShare)
  })

  it('refuses a share twice, shares of different lengths, and empty shares', async () => {
    const { deviceShare, authShare } = await splitSecret(generateHdSecret())
    const other = await splitSecret(importSolanaKey(new Uint8Array(32).fill(5)))
    await expect(combineShares(deviceShare, deviceShare)).rejects.toThrow(code('SHARE_MISMATCH'))
    await expect(combineShares(deviceShare, other.authShare)).rejects.toThrow(
      code('SHARE_MISMATCH'),
    )
    await expect(combineShares(new Uint8Array(), authShare)).rejects.toThrow(code('SHARE_MISMATCH'))
    await expect(combineShares(deviceShare.slice(0, 1), authShare.slice(0, 1))).rejects.toThrow(
      code('SHARE_MISMATCH'),
    )
  })

  it('does not change the caller’s secret or shares', async () => {
    const secret = generateHdSecret()
    const before = secret.payload.slice()
    const { deviceShare, authShare } = await splitSecret(secret)
    const copies = [deviceShare.slice(), authShare.slice()]
    await combineShares(deviceShare, authShare)
    expect(secret.payload).toEqual(before)
    expect([deviceShare, authShare]).toEqual(copies)
  })
})

describe('reconstructAndVerify', () => {
  it('returns the secret when it derives the expected entropy id (any hex case)', async () => {
    const secret = secretFromMnemonic(ANVIL)
    const { deviceShare, authShare } = await splitSecret(secret)
    const entropyId = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    expect(await reconstructAndVerify(deviceShare, authShare, entropyId)).toEqual(secret)
    expect(await reconstructAndVerify(deviceShare, authShare, entropyId.toLowerCase())).toEqual(
      secret,
    )
  })

  it('refuses a wrong entropy id with ENTROPY_ID_MISMATCH', async () => {
    const { deviceShare, authShare } = await splitSecret(secretFromMnemonic(ANVIL))
    for (const wrong of [
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', // index 1 of the same phrase
      entropyIdOf(generateHdSecret()),
      '',
    ]) {
      await expect(reconstructAndVerify(deviceShare, authShare, wrong)).rejects.toThrow(
        code('ENTROPY_ID_MISMATCH'),
      )
    }
  })

  it('compares Solana entropy ids exactly (base58 is case-sensitive)', async () => {
    const secret = importSolanaKey(new Uint8Array(32).fill(3))
    const entropyId = entropyIdOf(secret)
    const { deviceShare, authShare } = await splitSecret(secret)
    expect(await reconstructAndVerify(deviceShare, authShare, entropyId)).toEqual(secret)
    const recased = entropyId.replace(/[a-z]/, (c) => c.toUpperCase())
    await expect(reconstructAndVerify(deviceShare, authShare, recased)).rejects.toThrow(
      code('ENTROPY_ID_MISMATCH'),
    )
  })
})
