import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto'
import { Header, routes } from '@latchkey/protocol'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { verifyMessage } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, signInDemo, uniqueEmail, walletAddress } from './browser.ts'

// Tracker issue 15, item 1 (docs/security.md "Key routes answer only to the
// enclave"). A script that runs in the host page before the app loads — an
// XSS, a compromised dependency — collects every token it can see, and tries
// the key routes from the page and, with the stolen tokens, from its own
// machine. It must get no key material, while the real enclave in the same
// page still creates, signs, exports and recovers on a second device.

const { serverUrl, demoUrl, appId } = inject('e2e')
const MESSAGE = 'Hello from the Latchkey demo'
const serverOrigin = new URL(serverUrl).origin

/** What the injected script keeps: everything a host-page script can see. */
interface Loot {
  accessTokens: string[]
  refreshTokens: string[]
  enclaveKeys: string[]
}

/** Runs in the page before any of the app's scripts (Playwright `addInitScript`). */
function collector() {
  const loot = { accessTokens: [], refreshTokens: [], enclaveKeys: [] } as {
    accessTokens: string[]
    refreshTokens: string[]
    enclaveKeys: string[]
  }
  const keep = (list: string[], value: unknown) => {
    if (typeof value === 'string' && value && !list.includes(value)) list.push(value)
  }
  ;(window as unknown as { __loot: () => typeof loot }).__loot = () => {
    keep(loot.accessTokens, localStorage.getItem('latchkey:token'))
    keep(loot.refreshTokens, localStorage.getItem('latchkey:refresh_token'))
    return loot
  }
  const realFetch = window.fetch.bind(window)
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}))
    keep(loot.accessTokens, headers.get('authorization')?.replace(/^Bearer\s+/i, ''))
    keep(loot.enclaveKeys, headers.get('latchkey-enclave-key'))
    const response = await realFetch(input, init)
    response
      .clone()
      .json()
      .then((body: { token?: unknown; refresh_token?: unknown }) => {
        keep(loot.accessTokens, body?.token)
        keep(loot.refreshTokens, body?.refresh_token)
      })
      .catch(() => {})
    return response
  }
}

/** The attacker's own P-256 key, and RFC 9449-shaped proofs signed with it. */
function attackerKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' }) as Record<string, string>
  const thumbprint = createHash('sha256')
    .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }))
    .digest('base64url')
  return {
    thumbprint,
    proof(path: string, token: string): string {
      return signJws(privateKey, jwk, {
        htm: 'POST',
        htu: `${serverOrigin}${path}`,
        iat: Math.floor(Date.now() / 1000),
        jti: randomBytes(16).toString('base64url'),
        ath: createHash('sha256').update(token).digest('base64url'),
      })
    },
  }
}

function signJws(key: KeyObject, jwk: Record<string, string>, payload: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const header = {
    typ: 'dpop+jwt',
    alg: 'ES256',
    jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y },
  }
  const input = `${part(header)}.${part(payload)}`
  const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
  return `${input}.${signature.toString('base64url')}`
}

/** One attempt at a key route from Node: status, code, and whether anything key-shaped came back. */
async function tryKeyRoute(
  path: string,
  token: string,
  entropyId: string,
  extra: Record<string, string>,
): Promise<{ status: number; code: string | undefined; leaked: boolean }> {
  const response = await fetch(`${serverUrl}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      [Header.appId]: appId,
      'content-type': 'application/json',
      ...extra,
    },
    body: JSON.stringify({ entropy_id: entropyId }),
  })
  const text = await response.text()
  let code: string | undefined
  try {
    code = (JSON.parse(text) as { code?: string }).code
  } catch {}
  return {
    status: response.status,
    code,
    leaked: /auth_share|ciphertext|recovery_key/.test(text),
  }
}

const KEY_PATHS = [routes.embeddedWalletsAuthShare, routes.embeddedWalletsRecovery]

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

async function infectedContext(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext()
  await context.addInitScript(collector)
  return { context, page: await context.newPage() }
}

const loot = (page: Page) =>
  page.evaluate(() => (window as unknown as { __loot: () => Loot }).__loot())

describe('a host-page script cannot take a key (issue 15 item 1)', () => {
  it('gets no key material from the page or from Node, while the real enclave creates, signs, exports and recovers', async () => {
    const email = uniqueEmail('custody')
    const first = await infectedContext()
    const dialog = await logInToDemo(first.page, { serverUrl, demoUrl }, email)
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    const address = await walletAddress(first.page)
    // An HD secret's entropy id is its index-0 Ethereum address: the attacker knows it too.
    const entropyId = address.toLowerCase()

    const stolen = await loot(first.page)
    expect(stolen.accessTokens.length).toBeGreaterThan(0)
    expect(stolen.refreshTokens.length).toBeGreaterThan(0)
    // The login sent the enclave key's thumbprint: public, and useless without the key.
    expect(stolen.enclaveKeys).toHaveLength(1)
    const token = stolen.accessTokens.at(-1) as string

    // 1. From inside the page: the host origin is refused, with or without a proof
    //    made with a key the script generated itself.
    const fromPage = await first.page.evaluate(
      async ({ serverUrl, appId, token, entropyId, paths }) => {
        const key = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
          'sign',
        ])
        const results: Array<{ status: number | 'network-error'; body: string }> = []
        for (const path of paths)
          for (const withProof of [false, true]) {
            const headers: Record<string, string> = {
              authorization: `Bearer ${token}`,
              'latchkey-app-id': appId,
              'content-type': 'application/json',
            }
            if (withProof) {
              const jwk = await crypto.subtle.exportKey('jwk', key.publicKey)
              const enc = (v: unknown) =>
                btoa(JSON.stringify(v)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
              const input = `${enc({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } })}.${enc({ htm: 'POST', htu: `${serverUrl}${path}`, iat: Math.floor(Date.now() / 1000), jti: crypto.randomUUID() })}`
              const sig = await crypto.subtle.sign(
                { name: 'ECDSA', hash: 'SHA-256' },
                key.privateKey,
                new TextEncoder().encode(input),
              )
              headers.dpop = `${input}.${btoa(String.fromCharCode(...new Uint8Array(sig)))
                .replace(/=+$/, '')
                .replace(/\+/g, '-')
                .replace(/\//g, '_')}`
            }
            try {
              const response = await fetch(`${serverUrl}${path}`, {
                method: 'POST',
                headers,
                body: JSON.stringify({ entropy_id: entropyId }),
              })
              results.push({ status: response.status, body: await response.text() })
            } catch {
              results.push({ status: 'network-error', body: '' })
            }
          }
        return results
      },
      { serverUrl, appId, token, entropyId, paths: KEY_PATHS },
    )
    expect(fromPage).toHaveLength(4)
    for (const attempt of fromPage) {
      expect(attempt.status === 403 || attempt.status === 'network-error').toBe(true)
      expect(attempt.body).not.toMatch(/auth_share|ciphertext|recovery_key/)
    }

    // 2. From the attacker's machine with the stolen access token: no Origin, a
    //    forged enclave Origin, and a forged Origin with the attacker's own proof.
    const attacker = attackerKey()
    for (const path of KEY_PATHS) {
      const bare = await tryKeyRoute(path, token, entropyId, {})
      expect(bare).toMatchObject({ status: 403, code: 'ORIGIN_NOT_ALLOWED', leaked: false })
      const spoofed = await tryKeyRoute(path, token, entropyId, { origin: serverOrigin })
      expect(spoofed).toMatchObject({ status: 401, code: 'ENCLAVE_PROOF_INVALID', leaked: false })
      const proved = await tryKeyRoute(path, token, entropyId, {
        origin: serverOrigin,
        dpop: attacker.proof(path, token),
      })
      expect(proved).toMatchObject({ status: 401, code: 'ENCLAVE_PROOF_INVALID', leaked: false })
    }

    // 3. The real enclave, in the same infected page, still signs and exports.
    const signature = await signInDemo(first.page)
    expect(
      await verifyMessage({
        address: address as `0x${string}`,
        message: MESSAGE,
        signature: signature as `0x${string}`,
      }),
    ).toBe(true)
    await first.page.getByRole('button', { name: 'Export wallet', exact: true }).click()
    const exportFrame = first.page.frameLocator('iframe[title="Export your wallet"]')
    await exportFrame.locator('[data-action="reveal-seed-phrase"]').click({ timeout: 30_000 })
    const phrase = (await exportFrame.locator('[data-part="seed-phrase-value"]').innerText()).trim()
    expect(mnemonicToAccount(phrase).address).toBe(address)
    const afterExport = await loot(first.page)
    expect(JSON.stringify(afterExport)).not.toContain(phrase)
    expect(await first.page.evaluate(() => document.documentElement.outerHTML)).not.toContain(
      phrase,
    )
    await first.context.close()

    // 4. A second device (also infected) recovers with its own, newly bound enclave key.
    const second = await infectedContext()
    const again = await logInToDemo(second.page, { serverUrl, demoUrl }, email)
    await again.waitFor({ state: 'detached', timeout: 30_000 })
    expect(await walletAddress(second.page)).toBe(address)
    const recovered = await signInDemo(second.page)
    expect(
      await verifyMessage({
        address: address as `0x${string}`,
        message: MESSAGE,
        signature: recovered as `0x${string}`,
      }),
    ).toBe(true)
    const secondLoot = await loot(second.page)
    expect(secondLoot.enclaveKeys).toHaveLength(1)
    expect(secondLoot.enclaveKeys[0]).not.toBe(stolen.enclaveKeys[0])

    // Every release went to one of the two real enclaves' keys, none to the attacker's.
    const secondToken = secondLoot.accessTokens.at(-1) as string
    const activity = (await (
      await fetch(`${serverUrl}${routes.embeddedWalletsKeyActivity}`, {
        headers: { authorization: `Bearer ${secondToken}`, [Header.appId]: appId },
      })
    ).json()) as { data: Array<{ kind: string; enclave_key_thumbprint: string | null }> }
    expect(activity.data.length).toBeGreaterThan(0)
    for (const release of activity.data)
      expect([stolen.enclaveKeys[0], secondLoot.enclaveKeys[0]]).toContain(
        release.enclave_key_thumbprint,
      )
    expect(activity.data.map((r) => r.enclave_key_thumbprint)).not.toContain(attacker.thumbprint)

    // 5. A stolen refresh token mints fresh access tokens, still bound to the victim's enclave key.
    const refreshed = (await (
      await fetch(`${serverUrl}${routes.sessionRefresh}`, {
        method: 'POST',
        headers: { [Header.appId]: appId, 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: secondLoot.refreshTokens.at(-1) }),
      })
    ).json()) as { token: string }
    expect(refreshed.token).toBeTruthy()
    for (const path of KEY_PATHS) {
      const proved = await tryKeyRoute(path, refreshed.token, entropyId, {
        origin: serverOrigin,
        dpop: attacker.proof(path, refreshed.token),
      })
      expect(proved).toMatchObject({ status: 401, code: 'ENCLAVE_PROOF_INVALID', leaked: false })
    }
    await second.context.close()
  })
})
