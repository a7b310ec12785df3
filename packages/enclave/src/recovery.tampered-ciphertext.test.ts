import { describe, expect, it } from 'vitest'
import { base64urlToBytes, bytesToBase64url } from './encoding.ts'
import { generateRecoveryKey, openRecoveryShare, sealRecoveryShare } from './recovery.ts'

// Security bar 45: authenticated encryption; a tampered ciphertext fails to decrypt.

const ENTROPY_ID = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const failed = expect.objectContaining({ name: 'EnclaveError', code: 'DECRYPTION_FAILED' })

async function sealed() {
  const key = generateRecoveryKey()
  const deviceShare = crypto.getRandomValues(new Uint8Array(18))
  return { key, deviceShare, ciphertext: await sealRecoveryShare(deviceShare, key, ENTROPY_ID) }
}

describe('a recovery share that was tampered with does not open', () => {
  it('any flipped bit in the IV, the ciphertext or the tag', async () => {
    const { key, ciphertext } = await sealed()
    const bytes = base64urlToBytes(ciphertext)
    for (let i = 0; i < bytes.length; i++) {
      for (const bit of [0x01, 0x80]) {
        const tampered = bytes.slice()
        tampered[i] = (tampered[i] as number) ^ bit
        await expect(
          openRecoveryShare(bytesToBase64url(tampered), key, ENTROPY_ID),
        ).rejects.toThrow(failed)
      }
    }
  })

  it('truncated, extended, empty or not base64url', async () => {
    const { key, ciphertext } = await sealed()
    const bytes = base64urlToBytes(ciphertext)
    for (const text of [
      bytesToBase64url(bytes.subarray(0, -1)),
      bytesToBase64url(bytes.subarray(0, 28)),
      bytesToBase64url(Uint8Array.of(...bytes, 0)),
      '',
      `${ciphertext}=`,
      `+${ciphertext.slice(1)}`, // the standard alphabet
    ]) {
      await expect(openRecoveryShare(text, key, ENTROPY_ID)).rejects.toThrow(failed)
    }
  })

  it('a wrong key', async () => {
    const { ciphertext } = await sealed()
    await expect(openRecoveryShare(ciphertext, generateRecoveryKey(), ENTROPY_ID)).rejects.toThrow(
      failed,
    )
  })

  it('a wrong entropy id (a ciphertext moved to another wallet)', async () => {
    const { key, ciphertext } = await sealed()
    for (const other of [
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk',
    ]) {
      await expect(openRecoveryShare(ciphertext, key, other)).rejects.toThrow(failed)
    }
  })

  it('the IV and body of one seal with the tag of another', async () => {
    const key = generateRecoveryKey()
    const share = new Uint8Array(18).fill(4)
    const a = base64urlToBytes(await sealRecoveryShare(share, key, ENTROPY_ID))
    const b = base64urlToBytes(await sealRecoveryShare(share, key, ENTROPY_ID))
    const spliced = Uint8Array.of(...a.subarray(0, -16), ...b.subarray(-16))
    await expect(openRecoveryShare(bytesToBase64url(spliced), key, ENTROPY_ID)).rejects.toThrow(
      failed,
    )
  })

  it('still opens when untouched', async () => {
    const { key, deviceShare, ciphertext } = await sealed()
    expect(await openRecoveryShare(ciphertext, key, ENTROPY_ID)).toEqual(deviceShare)
  })
})
