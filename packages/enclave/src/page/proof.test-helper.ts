import { createHash } from 'node:crypto'
import {
  ENCLAVE_PROOF_JTI_MAX_LENGTH,
  ENCLAVE_PROOF_MAX_SKEW_S,
  ENCLAVE_PROOF_TYP,
} from '@latchkey/protocol/constants'
import { calculateJwkThumbprint, EmbeddedJWK, type JWK, jwtVerify } from 'jose'

/** The enclave page's origin in tests: the start of every proof's `htu`. */
export const ENCLAVE_ORIGIN = 'https://auth.example.com'

/** A proof that passed {@link verifyProof}: its key's thumbprint and its claims. */
export interface VerifiedProof {
  jkt: string
  jwk: JWK
  htm: string
  htu: string
  iat: number
  jti: string
  ath: string
}

/**
 * Checks an enclave proof the way the server does (RFC 9449 §4.3), with
 * libraries independent of the enclave's code: jose for the JWS and the
 * RFC 7638 thumbprint, node:crypto for `ath`. Throws with the reason.
 */
export async function verifyProof(
  proof: string | undefined,
  expected: { method: string; url: string; accessToken: string; now?: number },
): Promise<VerifiedProof> {
  if (!proof || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(proof))
    throw new Error('not a compact JWS')
  const now = expected.now ?? Date.now()
  const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, {
    typ: ENCLAVE_PROOF_TYP,
    algorithms: ['ES256'],
    currentDate: new Date(now),
  })
  const jwk = protectedHeader.jwk as JWK
  if (Object.keys(jwk).sort().join() !== 'crv,kty,x,y') throw new Error('the jwk is not public')
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256') throw new Error('not a P-256 key')
  const { htm, htu, iat, jti, ath } = payload as Record<string, unknown>
  if (htm !== expected.method) throw new Error(`htm ${String(htm)}`)
  if (htu !== expected.url) throw new Error(`htu ${String(htu)}`)
  if (typeof iat !== 'number' || Math.abs(now / 1000 - iat) > ENCLAVE_PROOF_MAX_SKEW_S)
    throw new Error('iat outside the window')
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > ENCLAVE_PROOF_JTI_MAX_LENGTH)
    throw new Error('bad jti')
  if (ath !== createHash('sha256').update(expected.accessToken).digest('base64url'))
    throw new Error('ath is not the access token')
  return { jkt: await calculateJwkThumbprint(jwk, 'sha256'), jwk, htm, htu, iat, jti, ath }
}
