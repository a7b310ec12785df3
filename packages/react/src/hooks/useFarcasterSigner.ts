import {
  type FarcasterSigner,
  initFarcasterSigner,
  LatchkeyError,
  refreshWallets,
  signFarcasterMessage as signInEnclave,
  waitForFarcasterSigner,
} from '@latchkey/core'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'

export interface UseFarcasterSignerReturnType {
  /**
   * Opens 'Add a signer to Farcaster' (spec 03 §2): the enclave makes the
   * user's ed25519 key and the server asks Farcaster to add it; the user
   * approves in their Farcaster app (QR code, link, or 'Open Farcaster app'
   * on mobile). Resolves with the approved signer once the modal closes;
   * rejects with 4001 when the user closes it first.
   */
  requestFarcasterSignerFromWarpcast(): Promise<FarcasterSigner>
  /** The approved signer's ed25519 public key (32 bytes), as the user's Farcaster account records it. */
  getFarcasterSignerPublicKey(): Promise<Uint8Array>
  /** Signs a Farcaster message hash in the enclave; the 64-byte ed25519 signature. */
  signFarcasterMessage(messageHash: Uint8Array): Promise<Uint8Array>
}

const hexToBytes = (hex: string) =>
  Uint8Array.from(hex.replace(/^0x/, '').match(/../g) ?? [], (byte) => Number.parseInt(byte, 16))

/**
 * A Farcaster signer held by the enclave (docs/farcaster-signer.md). The two
 * helpers have the shape of an external ed25519 signer, so a Farcaster
 * client library can sign casts with them:
 *
 * @example
 * const { requestFarcasterSignerFromWarpcast, getFarcasterSignerPublicKey, signFarcasterMessage } =
 *   useFarcasterSigner()
 * await requestFarcasterSignerFromWarpcast()
 * const signer = new ExternalEd25519Signer(signFarcasterMessage, getFarcasterSignerPublicKey)
 */
export function useFarcasterSigner(): UseFarcasterSignerReturnType {
  const instance = useLatchkeyInstance()
  const { client } = instance

  const requestFarcasterSignerFromWarpcast = useCallback(async () => {
    const user = client.session.getState().user
    if (!user) throw new LatchkeyError('NOT_AUTHENTICATED')
    return instance.openWalletScreen<FarcasterSigner>({
      screen: 'farcaster-signer',
      init: () => initFarcasterSigner(client),
      async wait(publicKey, signal) {
        const signer = await waitForFarcasterSigner(client, publicKey, { signal })
        // The user's Farcaster account now names the signer (signerPublicKey).
        await refreshWallets(client).catch(() => undefined)
        return signer
      },
    })
  }, [client, instance])

  const getFarcasterSignerPublicKey = useCallback(async () => {
    const user = client.session.getState().user
    if (!user) throw new LatchkeyError('NOT_AUTHENTICATED')
    const account = user.linkedAccounts.find((a) => a.type === 'farcaster')
    if (account?.type !== 'farcaster' || !account.signerPublicKey)
      throw new LatchkeyError('FARCASTER_SIGNER_CONNECT_FAILED')
    return hexToBytes(account.signerPublicKey)
  }, [client])

  const signFarcasterMessage = useCallback(
    (messageHash: Uint8Array) => signInEnclave(client, messageHash),
    [client],
  )

  return { requestFarcasterSignerFromWarpcast, getFarcasterSignerPublicKey, signFarcasterMessage }
}
