import type {
  AuthShareResponse,
  PasswordKdf,
  RecoveryMaterial,
  RecoveryMaterialResponse,
} from '@latchkey/protocol'
import { ApiError } from '../errors.ts'
import type { AuthContext, Services } from '../http/context.ts'
import { type KeyReleaseOrigin, recordKeyRelease } from './key-releases.ts'
import { findOwnSecret, refOf, type SecretRef, unseal } from './service.ts'
import { warmUntil } from './warm-until.ts'

// The two releases of key material: the auth share and the recovery material.

/**
 * The one way the auth share leaves the server (security bar 41): only to a
 * valid session of the wallet's owner (its route has checked the enclave's
 * proof and, for a user with MFA, a fresh verification: docs/mfa.md).
 * Another user's entropy id answers exactly like an unknown one (404
 * WALLET_NOT_FOUND), so it probes nothing.
 * Each release is recorded (key-releases.ts) before the share is returned.
 * The answer's `warm_until` says until when the enclave may keep the rebuilt
 * key (warm-until.ts): signatures within that window fetch nothing, so they
 * are not releases and are not recorded.
 */
export async function releaseAuthShare(
  services: Services,
  auth: AuthContext,
  entropyId: string,
  origin: KeyReleaseOrigin,
): Promise<AuthShareResponse> {
  const secret = await findOwnSecret(services.db, auth, entropyId)
  if (!secret) throw new ApiError('WALLET_NOT_FOUND')
  const authShare = unseal(services, refOf(secret), 'auth_share', secret.auth_share)
  await recordKeyRelease(services, {
    auth,
    entropyId: secret.entropy_id,
    kind: 'auth_share',
    origin,
  })
  return {
    entropy_id: entropyId,
    auth_share: authShare,
    warm_until: await warmUntil(services, auth),
  }
}

/**
 * The recovery material of the user's own secret (automatic recovery includes
 * the server-held key), recorded (key-releases.ts) before it is returned.
 */
export async function getRecoveryMaterial(
  services: Services,
  auth: AuthContext,
  entropyId: string,
  origin: KeyReleaseOrigin,
): Promise<RecoveryMaterialResponse> {
  const secret = await findOwnSecret(services.db, auth, entropyId)
  if (!secret) throw new ApiError('WALLET_NOT_FOUND')
  const ref = refOf(secret)
  const ciphertext = unseal(services, ref, 'recovery_ciphertext', secret.recovery_ciphertext)
  let recovery: RecoveryMaterial
  switch (secret.recovery_method) {
    case 'latchkey': {
      if (!secret.recovery_key) throw corrupt(services, ref, 'recovery_key')
      recovery = {
        method: 'latchkey',
        ciphertext,
        recovery_key: unseal(services, ref, 'recovery_key', secret.recovery_key),
      }
      break
    }
    case 'user-passcode': {
      if (!secret.recovery_kdf) throw corrupt(services, ref, 'recovery_kdf')
      recovery = {
        method: 'user-passcode',
        ciphertext,
        kdf: JSON.parse(secret.recovery_kdf) as PasswordKdf,
      }
      break
    }
    case 'google-drive':
    case 'icloud': {
      if (!secret.recovery_key_id) throw corrupt(services, ref, 'recovery_key_id')
      recovery = { method: secret.recovery_method, ciphertext, key_id: secret.recovery_key_id }
      break
    }
    default:
      throw corrupt(services, ref, 'recovery_method')
  }
  await recordKeyRelease(services, { auth, entropyId: ref.entropyId, kind: 'recovery', origin })
  return { entropy_id: entropyId, recovery }
}

function corrupt(services: Services, ref: SecretRef, column: string): ApiError {
  services.logger.error(`wallet secret row is inconsistent (app ${ref.appId}, column ${column})`)
  return new ApiError('INTERNAL_ERROR')
}
