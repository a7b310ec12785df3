import { createHash, randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import { p256 } from '@noble/curves/nist.js'
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers'
import type { AppSettings } from '../../apps/service.ts'
import type { RequestOptions, TestInstance, TestResponse } from '../../test/instance.ts'
import { TEST_ORIGIN } from '../../test/origin.ts'

/*
 * A software WebAuthn authenticator for tests (P-256 / ES256): real 'none'
 * attestation objects and real assertions, with knobs to tamper with each
 * field a relying party must check (security bar 24).
 */

/** An app with passkey login (and email, for a second login method). */
export const PASSKEY_APP_SETTINGS: AppSettings = { login_methods: { email: true, passkey: true } }

/** The RP ID of TEST_ORIGIN. */
export const TEST_RP_ID = new URL(TEST_ORIGIN).hostname

/** iCloud Keychain's AAGUID (authenticators.ts). */
export const ICLOUD_KEYCHAIN_AAGUID = 'fbfc3007-154e-4ecc-8c0b-6e020557d7bd'

/** Chrome 126 on macOS. */
export const CHROME_MAC_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'

/** What a test may falsify in a ceremony; every field defaults to the honest value. */
export interface CeremonyTamper {
  /** clientDataJSON `type` (honest: webauthn.create / webauthn.get). */
  type?: string
  /** clientDataJSON `challenge`. */
  challenge?: string
  /** clientDataJSON `origin`. */
  origin?: string
  /** The RP ID whose SHA-256 goes into authenticator data. */
  rpId?: string
  /** User-present flag (honest: true). */
  up?: boolean
  /** User-verified flag (honest: true). */
  uv?: boolean
  /** signCount to report instead of the authenticator's own. */
  counter?: number
  /** Assertion signature: 'corrupt' flips a bit, 'other-key' signs with a stranger's key. */
  signature?: 'corrupt' | 'other-key'
  /** userHandle to return in an assertion. */
  userHandle?: string
}

/** What the server's options carry that the authenticator needs. */
export interface CeremonyOptions {
  rpId: string
  challenge: string
  origin: string
  /** base64url user handle (creation). */
  userHandle?: string
}

type Bytes = Uint8Array<ArrayBuffer>

const sha256 = (bytes: Uint8Array): Bytes =>
  new Uint8Array(createHash('sha256').update(bytes).digest())
const utf8 = (text: string): Bytes => new TextEncoder().encode(text)

function concat(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

function uint32(value: number): Bytes {
  const out = new Uint8Array(4)
  new DataView(out.buffer).setUint32(0, value)
  return out
}

function aaguidBytes(aaguid: string): Bytes {
  return Uint8Array.from(Buffer.from(aaguid.replaceAll('-', ''), 'hex'))
}

/**
 * One discoverable ES256 credential, created by {@link create} and used by
 * {@link get}. `counterStep` 0 models synced passkeys (signCount always 0).
 *
 * @example
 * const authenticator = new SoftwareAuthenticator()
 * const response = authenticator.create({ rpId: 'app.test', challenge, origin: 'http://app.test' })
 */
export class SoftwareAuthenticator {
  readonly aaguid: string
  readonly counterStep: number
  credentialId: Bytes
  signCount = 0
  userHandle: string | undefined
  private readonly secretKey = p256.utils.randomSecretKey()

  constructor(options: { aaguid?: string; counterStep?: number; credentialId?: Bytes } = {}) {
    this.aaguid = options.aaguid ?? '00000000-0000-0000-0000-000000000000'
    this.counterStep = options.counterStep ?? 1
    this.credentialId = options.credentialId ?? new Uint8Array(randomBytes(32))
  }

  /** base64url credential id. */
  get id(): string {
    return isoBase64URL.fromBuffer(this.credentialId)
  }

  private clientData(type: string, options: CeremonyOptions, tamper: CeremonyTamper): string {
    const json = JSON.stringify({
      type: tamper.type ?? type,
      challenge: tamper.challenge ?? options.challenge,
      origin: tamper.origin ?? options.origin,
      crossOrigin: false,
    })
    return isoBase64URL.fromBuffer(utf8(json))
  }

  private authData(options: CeremonyOptions, tamper: CeremonyTamper, attested?: Uint8Array) {
    let flags = 0
    if (tamper.up ?? true) flags |= 0x01
    if (tamper.uv ?? true) flags |= 0x04
    if (attested) flags |= 0x40
    return concat(
      sha256(utf8(tamper.rpId ?? options.rpId)),
      Uint8Array.of(flags),
      uint32(tamper.counter ?? this.signCount),
      attested ?? new Uint8Array(),
    )
  }

  /** COSE_Key of the public key (RFC 9053 §7.1.1: kty EC2, alg ES256, crv P-256). */
  private coseKey(): Bytes {
    const point = p256.getPublicKey(this.secretKey, false)
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, point.slice(1, 33)],
        [-3, point.slice(33, 65)],
      ]),
    )
  }

  /** A `navigator.credentials.create()` answer with a 'none' attestation. */
  create(options: CeremonyOptions, tamper: CeremonyTamper = {}): RegistrationResponseJSON {
    this.userHandle = options.userHandle
    const attested = concat(
      aaguidBytes(this.aaguid),
      Uint8Array.of(this.credentialId.length >> 8, this.credentialId.length & 0xff),
      this.credentialId,
      this.coseKey(),
    )
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Bytes | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', this.authData(options, tamper, attested)],
      ]),
    )
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: this.clientData('webauthn.create', options, tamper),
        attestationObject: isoBase64URL.fromBuffer(attestationObject),
        transports: ['internal', 'hybrid'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    }
  }

  /** A `navigator.credentials.get()` answer: signs authenticatorData ‖ SHA-256(clientDataJSON). */
  get(options: CeremonyOptions, tamper: CeremonyTamper = {}): AuthenticationResponseJSON {
    this.signCount += this.counterStep
    const clientDataJSON = this.clientData('webauthn.get', options, tamper)
    const authData = this.authData(options, tamper)
    const signed = concat(authData, sha256(isoBase64URL.toBuffer(clientDataJSON)))
    const key = tamper.signature === 'other-key' ? p256.utils.randomSecretKey() : this.secretKey
    const signature = new Uint8Array(p256.sign(signed, key, { format: 'der' }))
    if (tamper.signature === 'corrupt')
      signature[signature.length - 1] = (signature.at(-1) ?? 0) ^ 1
    const userHandle = tamper.userHandle ?? this.userHandle
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON,
        authenticatorData: isoBase64URL.fromBuffer(authData),
        signature: isoBase64URL.fromBuffer(signature),
        ...(userHandle ? { userHandle } : {}),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    }
  }
}

/** Request options shared by the helpers below. */
export interface PasskeyRequestOptions {
  /** Origin header (default TEST_ORIGIN; null for none). */
  origin?: string | null
  appId?: string
  /** Bearer access token (link routes). */
  token?: string | null
  userAgent?: string
  tamper?: CeremonyTamper
}

const requestOf = (options: PasskeyRequestOptions): RequestOptions => {
  const request: RequestOptions = {
    origin: options.origin === undefined ? TEST_ORIGIN : options.origin,
  }
  if (options.appId) request.appId = options.appId
  if (options.token) request.token = options.token
  if (options.userAgent) request.headers = { 'user-agent': options.userAgent }
  return request
}

/** POST an init route; throws unless it answers 200. */
export async function passkeyInit(
  t: TestInstance,
  path: string,
  options: PasskeyRequestOptions = {},
): Promise<{ relying_party: string; options: Record<string, unknown> & { challenge: string } }> {
  const res = await t.request(path, { body: {}, ...requestOf(options) })
  if (res.status !== 200) throw new Error(`${path} failed: ${JSON.stringify(res.body)}`)
  return res.body
}

/** register/init → authenticator.create → register (or link with `token`): the response. */
export async function passkeyCreate(
  t: TestInstance,
  authenticator: SoftwareAuthenticator,
  options: PasskeyRequestOptions & { link?: boolean } = {},
): Promise<TestResponse> {
  const [initPath, path] = options.link
    ? [routes.passkeyLinkInit, routes.passkeyLink]
    : [routes.passkeyRegisterInit, routes.passkeyRegister]
  const init = await passkeyInit(t, initPath, options)
  const user = init.options.user as { id: string }
  const response = authenticator.create(
    {
      rpId: init.relying_party,
      challenge: init.options.challenge,
      origin: TEST_ORIGIN,
      userHandle: user.id,
    },
    options.tamper,
  )
  return t.request(path, {
    body: { relying_party: init.relying_party, authenticator_response: response },
    ...requestOf(options),
  })
}

/** authenticate/init → authenticator.get → authenticate: the response. */
export async function passkeyLogin(
  t: TestInstance,
  authenticator: SoftwareAuthenticator,
  options: PasskeyRequestOptions & { mode?: 'login-or-sign-up' | 'no-signup' } = {},
): Promise<TestResponse> {
  const init = await passkeyInit(t, routes.passkeyAuthenticateInit, options)
  return t.request(routes.passkeyAuthenticate, {
    body: passkeyAssertionBody(authenticator, init, options.tamper, options.mode),
    ...requestOf(options),
  })
}

/** The authenticate request body for an init answer. */
export function passkeyAssertionBody(
  authenticator: SoftwareAuthenticator,
  init: { relying_party: string; options: { challenge: string } },
  tamper: CeremonyTamper = {},
  mode: 'login-or-sign-up' | 'no-signup' = 'login-or-sign-up',
) {
  return {
    relying_party: init.relying_party,
    challenge: init.options.challenge,
    authenticator_response: authenticator.get(
      { rpId: init.relying_party, challenge: init.options.challenge, origin: TEST_ORIGIN },
      tamper,
    ),
    mode,
  }
}

/** The `reason` of a PASSKEY_VERIFICATION_FAILED answer. */
export const failureReason = (res: TestResponse): string | undefined => res.body?.details?.reason
