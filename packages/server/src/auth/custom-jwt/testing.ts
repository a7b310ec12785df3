import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose'

/**
 * A local JWKS endpoint serving the public halves of generated keys, and a
 * signer for tokens under them: the app's own auth system in tests.
 */
export interface TestIssuer {
  url: string
  issuer: string
  audience: string
  /** A token signed with the key `kid` (default the first one). */
  sign(
    claims: JWTPayload,
    options?: { kid?: string; exp?: number | null; iat?: number },
  ): Promise<string>
  /** Requests the JWKS endpoint has answered. */
  hits(): number
  close(): Promise<void>
}

export async function startTestIssuer(now: () => number): Promise<TestIssuer> {
  const issuer = 'https://auth.app.test'
  const audience = 'latchkey-test'
  const keys = new Map<string, CryptoKey>()
  const publicJwks: JWK[] = []
  for (const kid of ['key-1', 'key-2']) {
    const { privateKey, publicKey } = await generateKeyPair('ES256')
    keys.set(kid, privateKey)
    publicJwks.push({ ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' })
  }
  let hits = 0
  const server: Server = createServer((req, res) => {
    hits++
    if (req.url !== '/.well-known/jwks.json') {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ keys: publicJwks }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    issuer,
    audience,
    async sign(claims, options = {}) {
      const kid = options.kid ?? 'key-1'
      const key = keys.get(kid) ?? keys.get('key-1')
      const iat = options.iat ?? Math.floor(now() / 1000)
      const jwt = new SignJWT({ iss: issuer, aud: audience, ...claims })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
        .setIssuedAt(iat)
      // `exp: null` leaves the claim out.
      if (options.exp !== null) jwt.setExpirationTime(options.exp ?? iat + 600)
      return jwt.sign(key as CryptoKey)
    },
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
