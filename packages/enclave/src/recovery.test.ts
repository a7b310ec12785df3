import {
  entropyIdOf,
  generateHdSecret,
  importSolanaKey,
  reconstructAndVerify,
  splitSecret,
} from '@latchkey/protocol/keys'
import { describe, expect, it } from 'vitest'
import { base64urlToBytes } from './encoding.ts'
import { generateRecoveryKey, openRecoveryShare, sealRecoveryShare } from './recovery.ts'

describe('recovery share', () => {
  it('generateRecoveryKey gives 32 fresh random bytes', () => {
    const a = generateRecoveryKey()
    expect(a.length).toBe(32)
    expect(a).not.toEqual(generateRecoveryKey())
  })

  it('seals and opens the device share (base64url of iv ‖ ciphertext ‖ tag)', async () => {
    const deviceShare = crypto.getRandomValues(new Uint8Array(18))
    const key = generateRecoveryKey()
    const entropyId = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    const sealed = await sealRecoveryShare(deviceShare, key, entropyId)
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(base64urlToBytes(sealed).length).toBe(12 + 18 + 16)
    expect(await openRecoveryShare(sealed, key, entropyId)).toEqual(deviceShare)
    // The server may store the address in any letter case.
    expect(await openRecoveryShare(sealed, key, entropyId.toLowerCase())).toEqual(deviceShare)
  })

  it('uses a fresh IV for every seal', async () => {
    const deviceShare = new Uint8Array(18).fill(1)
    const key = generateRecoveryKey()
    const a = await sealRecoveryShare(deviceShare, key, 'id')
    const b = await sealRecoveryShare(deviceShare, key, 'id')
    expect(a).not.toBe(b)
    expect(base64urlToBytes(a).subarray(0, 12)).not.toEqual(base64urlToBytes(b).subarray(0, 12))
  })

  it('rebuilds a wallet on a new device: auth share + opened recovery share', async () => {
    for (const secret of [generateHdSecret(), importSolanaKey(new Uint8Array(32).fill(8))]) {
      const entropyId = entropyIdOf(secret)
      const { deviceShare, authShare } = await splitSecret(secret)
      const key = generateRecoveryKey()
      const recovery = await sealRecoveryShare(deviceShare, key, entropyId)
      const restored = await openRecoveryShare(recovery, key, entropyId)
      expect(await reconstructAndVerify(restored, authShare, entropyId)).toEqual(secret)
    }
  })

  it('refuses keys that are not 32 bytes', async () => {
    const share = new Uint8Array(18)
    for (const key of [new Uint8Array(16), new Uint8Array(31), new Uint8Array(33)]) {
      await expect(sealRecoveryShare(share, key, 'id')).rejects.toThrow(
        expect.objectContaining({ code: 'INVALID_KEY' }),
      )
    }
  })
})
