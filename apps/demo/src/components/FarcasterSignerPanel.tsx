import { type User, useFarcasterSigner } from '@latchkey/react'
import { useState } from 'react'
import { describeError } from './describe-error.ts'

const toHex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

/**
 * Farcaster signer (spec 03 "Farcaster signer"): for a user with a Farcaster
 * account, 'Add Farcaster signer' opens 'Add a signer to Farcaster'; once
 * approved, 'Sign message hash' signs a random 20-byte hash (a Farcaster
 * message hash's size) in the enclave and shows the ed25519 signature.
 */
export function FarcasterSignerPanel({ user }: { user: User }) {
  const { requestFarcasterSignerFromWarpcast, getFarcasterSignerPublicKey, signFarcasterMessage } =
    useFarcasterSigner()
  const [signed, setSigned] = useState<{ hash: string; signature: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const account = user.linkedAccounts.find((a) => a.type === 'farcaster')
  if (account?.type !== 'farcaster') return null
  const run = (action: () => Promise<void>) => () => {
    setError(null)
    action().catch((e: unknown) => setError(describeError(e)))
  }
  return (
    <div className="section">
      <h3 className="section-title">Farcaster signer</h3>
      <p className="muted">
        Signer key:{' '}
        <code data-testid="farcaster-signer-key">{account.signerPublicKey ?? 'none'}</code>
      </p>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={run(async () => {
            await requestFarcasterSignerFromWarpcast()
          })}
        >
          Add Farcaster signer
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={!account.signerPublicKey}
          onClick={run(async () => {
            const hash = crypto.getRandomValues(new Uint8Array(20))
            await getFarcasterSignerPublicKey()
            const signature = await signFarcasterMessage(hash)
            setSigned({ hash: toHex(hash), signature: toHex(signature) })
          })}
        >
          Sign message hash
        </button>
      </div>
      {signed && (
        <dl className="fields">
          <div className="field">
            <dt>Hash</dt>
            <dd>
              <code data-testid="farcaster-signed-hash">{signed.hash}</code>
            </dd>
          </div>
          <div className="field">
            <dt>Signature</dt>
            <dd>
              <code data-testid="farcaster-signature">{signed.signature}</code>
            </dd>
          </div>
        </dl>
      )}
      {error && (
        <p className="muted" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
