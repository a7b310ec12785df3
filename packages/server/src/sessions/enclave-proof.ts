import {
  ENCLAVE_PROOF_JTI_MAX_LENGTH,
  ENCLAVE_PROOF_MAX_SKEW_S,
  ENCLAVE_PROOF_TYP,
  Header,
} from '@latchkey/protocol'
import type { Context } from 'hono'
import { calculateJwkThumbprint, EmbeddedJWK, type JWK, jwtVerify } from 'jose'
import { isUniqueViolation } from '../db/connect.ts'
import { ApiError } from '../errors.ts'
import type { HonoEnv, Services } from '../http/context.ts'
import { sha256 } from '../ids.ts'

/*
 * The per-request proof of a key route (docs/security.md "Key routes answer
 * only to the enclave"): a DPoP-shaped JWS (RFC 9449 §4.2) signed by the
 * enclave's non-extractable device key, whose thumbprint the session was
 * bound to at login (sessions/enclave-key.ts). A copied access token is not
 * enough: the proof also needs that key, which never leaves the enclave.
 */

/** A compact JWS: three base64url parts. Several `dpop` headers arrive joined by ", " and fail it. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

/** Longer than any proof with a P-256 key (about 600 characters). */
const MAX_PROOF_LENGTH = 2048

/** A spent `jti` is kept this long: past it, the proof's `iat` is outside the window anyway. */
export const ENCLAVE_PROOF_JTI_TTL_MS = 2 * ENCLAVE_PROOF_MAX_SKEW_S * 1000

export interface VerifyEnclaveProofParameters {
  /** The bearer access token of the request (the proof's `ath` covers it). */
  token: string
  /** The session's `enclave_jkt`; null (an unbound session) is always refused. */
  enclaveKeyThumbprint: string | null
}

/** Why a proof was refused: logged, never sent (the client only hears ENCLAVE_PROOF_INVALID). */
class ProofRefused extends Error {}

function refuse(reason: string): never {
  throw new ProofRefused(reason)
}

/**
 * Checks the `dpop` header of a key-route request, then spends its `jti`:
 * one header; a JWS of `typ` dpop+jwt, ES256, signed by the public `jwk` in
 * its header; that key's RFC 7638 thumbprint is the session's; `htm` is the
 * method; `htu` is one of this server's configured origins followed by the
 * request's path (never the Host header); `iat` within ±60 s of the server's
 * clock; `jti` 1..64 characters, never seen before; `ath` is the SHA-256 of
 * the access token. Any failure is 401 ENCLAVE_PROOF_INVALID.
 *
 * @example
 * const auth = await authenticateRequest(services, token, app.id)
 * await verifyEnclaveProof(c, services, { token, enclaveKeyThumbprint: auth.enclaveKeyThumbprint })
 */
export async function verifyEnclaveProof(
  c: Context<HonoEnv>,
  services: Services,
  parameters: VerifyEnclaveProofParameters,
): Promise<void> {
  try {
    const jkt = await checkProof(c, services, parameters)
    await spendJti(services, jkt.thumbprint, jkt.jti)
  } catch (error) {
    if (!(error instanceof ProofRefused)) throw error
    services.logger.warn(`enclave proof refused on ${c.req.method} ${c.req.path}: ${error.message}`)
    throw new ApiError('ENCLAVE_PROOF_INVALID')
  }
}

async function checkProof(
  c: Context<HonoEnv>,
  services: Services,
  { token, enclaveKeyThumbprint }: VerifyEnclaveProofParameters,
): Promise<{ thumbprint: string; jti: string }> {
  if (enclaveKeyThumbprint === null) refuse('the session is not bound to an enclave key')
  const proof = c.req.header(Header.enclaveProof)
  if (proof === undefined) refuse('no proof')
  if (proof.length > MAX_PROOF_LENGTH || !COMPACT_JWS.test(proof))
    refuse('not exactly one compact JWS')
  const now = services.now()
  const { payload, jwk } = await verifySignature(proof, now)
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || 'd' in jwk) refuse('not a public P-256 key')
  if ((await calculateJwkThumbprint(jwk, 'sha256')) !== enclaveKeyThumbprint)
    refuse("not the session's enclave key")
  if (payload.htm !== c.req.method) refuse('htm is not the method')
  // The request's own URL is built from its Host header, which the caller writes.
  const path = c.req.path
  if (!services.config.ownOrigins.some((origin) => payload.htu === `${origin}${path}`))
    refuse('htu is not this server and path')
  const { iat, jti } = payload
  if (typeof iat !== 'number' || Math.abs(now / 1000 - iat) > ENCLAVE_PROOF_MAX_SKEW_S)
    refuse('iat outside the window')
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > ENCLAVE_PROOF_JTI_MAX_LENGTH)
    refuse('bad jti')
  if (payload.ath !== sha256(token)) refuse('ath is not the access token')
  return { thumbprint: enclaveKeyThumbprint, jti }
}

/** The JWS checks (jose): typ, ES256 only, signed by the public key embedded in its header. */
async function verifySignature(proof: string, now: number) {
  try {
    const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, {
      typ: ENCLAVE_PROOF_TYP,
      algorithms: ['ES256'],
      currentDate: new Date(now),
    })
    return { payload, jwk: protectedHeader.jwk as JWK }
  } catch (error) {
    // Whatever the parser or WebCrypto throws on a forged proof is a refusal.
    return refuse(`invalid JWS (${error instanceof Error ? error.message : 'unknown'})`)
  }
}

/** RFC 9449 §11.1: a proof is used once. The primary key refuses a second insert, also a concurrent one. */
async function spendJti(services: Services, jkt: string, jti: string): Promise<void> {
  try {
    await services.db
      .insertInto('enclave_proof_jtis')
      .values({
        jti_hash: sha256(`${jkt}.${jti}`),
        expires_at: services.now() + ENCLAVE_PROOF_JTI_TTL_MS,
      })
      .execute()
  } catch (error) {
    if (isUniqueViolation(error)) refuse('jti replayed')
    throw error
  }
}
