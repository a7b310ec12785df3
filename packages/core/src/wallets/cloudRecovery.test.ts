import { afterEach, describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json } from '../test/fake-server.ts'
import {
  CLOUD_CONSENT_MAX_AGE_MS,
  pkceChallenge,
  startCloudConsent,
  takeCloudConsentReturn,
} from './cloudRecovery.ts'

const PAGE = 'https://app.example/wallet'

function setup() {
  const fake = createFakeFetch((call) =>
    json(200, { url: `https://accounts.example/auth?from=${encodeURIComponent(call.url)}` }),
  )
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://localhost:8787',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
  })
  client.session.applyAuthResponse(authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 }))
  return { client, calls: fake.calls }
}

/** The state code the init request carried. */
const sentState = (calls: Array<{ body: unknown }>) =>
  (calls[0]?.body as Record<string, string> | undefined)?.state_code ?? ''

async function startGoogle(client: ReturnType<typeof setup>['client'], now = 1_000) {
  let navigatedTo = ''
  await startCloudConsent(client, {
    provider: 'google-drive',
    action: 'set-recovery',
    entropyId: '0x1111111111111111111111111111111111111111',
    redirectTo: PAGE,
    navigate: (url) => {
      navigatedTo = url
    },
    now: () => now,
  })
  return navigatedTo
}

afterEach(() => sessionStorage.clear())

describe('startCloudConsent', () => {
  it('sends an S256 challenge of a verifier it keeps, a fresh state, and navigates to the URL', async () => {
    const { client, calls } = setup()
    const navigatedTo = await startGoogle(client)
    expect(navigatedTo).toMatch(/^https:\/\/accounts\.example\/auth/)
    const body = calls[0]?.body as Record<string, string>
    expect(calls[0]?.url).toBe('http://localhost:8787/api/v1/recovery/oauth/init')
    expect(calls[0]?.headers.authorization).toMatch(/^Bearer /)
    expect(body.redirect_to).toBe(PAGE)
    expect(body.state_code).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const pending = JSON.parse(sessionStorage.getItem(`latchkey:${APP_ID}:cloud-recovery`) ?? '')
    expect(pending.stateCode).toBe(body.state_code)
    expect(body.code_challenge).toBe(await pkceChallenge(pending.codeVerifier))
    expect(pending.codeVerifier).not.toBe(body.code_challenge)
  })

  it('asks init_icloud for iCloud without a PKCE challenge', async () => {
    const { client, calls } = setup()
    await startCloudConsent(client, {
      provider: 'icloud',
      action: 'recover',
      redirectTo: PAGE,
      navigate() {},
    })
    expect(calls[0]?.url).toBe('http://localhost:8787/api/v1/recovery/oauth/init_icloud')
    expect(calls[0]?.body).toMatchObject({ client_type: 'web', redirect_to: PAGE })
    expect(calls[0]?.body).not.toHaveProperty('code_challenge')
  })

  it('keeps nothing when the server refuses to start', async () => {
    const fake = createFakeFetch(() =>
      json(400, { code: 'CLOUD_RECOVERY_NOT_CONFIGURED', message: 'no' }),
    )
    const client = createLatchkeyClient({
      appId: APP_ID,
      apiUrl: 'http://localhost:8787',
      fetch: fake.fetch,
      storage: createMemoryStorage(),
      cookies: { get: () => null, set() {}, remove() {} },
    })
    client.session.applyAuthResponse(authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 }))
    await expect(
      startCloudConsent(client, {
        provider: 'google-drive',
        action: 'recover',
        redirectTo: PAGE,
        navigate() {},
      }),
    ).rejects.toMatchObject({ code: 'CLOUD_RECOVERY_NOT_CONFIGURED' })
    expect(sessionStorage.length).toBe(0)
  })
})

describe('takeCloudConsentReturn', () => {
  it('hands over code, state and verifier once, and strips them from the address', async () => {
    const { client, calls } = setup()
    await startGoogle(client)
    const state = sentState(calls)
    const replaced: string[] = []
    const url = `${PAGE}?tab=2&code=4%2Fabc&state=${state}&scope=drive.appdata`
    const back = takeCloudConsentReturn(client, {
      url,
      now: 2_000,
      replaceUrl: (u) => replaced.push(u),
    })
    expect(back).toMatchObject({
      ok: true,
      pending: { action: 'set-recovery', provider: 'google-drive' },
      oauth: { provider: 'google-drive', authorization_code: '4/abc', state_code: state },
    })
    expect(back?.ok && back.oauth.code_verifier).toMatch(/^[A-Za-z0-9_-]{64}$/)
    expect(replaced).toEqual([`${PAGE}?tab=2`])
    // Single use: the pending consent is gone.
    expect(takeCloudConsentReturn(client, { url, now: 2_000, replaceUrl() {} })).toBeNull()
  })

  it('oauth state mismatch: a return carrying another state is refused', async () => {
    const { client } = setup()
    await startGoogle(client)
    const back = takeCloudConsentReturn(client, {
      url: `${PAGE}?code=stolen&state=attacker-state-aaaaaaaaaaaaaaaa`,
      now: 2_000,
      replaceUrl() {},
    })
    expect(back).toMatchObject({
      ok: false,
      code: 'OAUTH_STATE_MISMATCH',
      reason: 'state-mismatch',
    })
  })

  it('a denied consent is the action failure with reason denied', async () => {
    const { client, calls } = setup()
    await startGoogle(client)
    const state = sentState(calls)
    const back = takeCloudConsentReturn(client, {
      url: `${PAGE}?error=access_denied&state=${state}`,
      now: 2_000,
      replaceUrl() {},
    })
    expect(back).toMatchObject({ ok: false, code: 'CLOUD_BACKUP_FAILED', reason: 'denied' })
  })

  it("a provider error other than a denial is 'Recovery OAuth failed'", async () => {
    const { client, calls } = setup()
    await startGoogle(client)
    const state = sentState(calls)
    const back = takeCloudConsentReturn(client, {
      url: `${PAGE}?error=server_error&state=${state}`,
      now: 2_000,
      replaceUrl() {},
    })
    expect(back).toMatchObject({
      ok: false,
      code: 'RECOVERY_OAUTH_FAILED',
      reason: 'provider-error',
    })
  })

  it('ignores a return with no consent started in this tab, or an expired one', async () => {
    const { client, calls } = setup()
    expect(
      takeCloudConsentReturn(client, { url: `${PAGE}?code=x&state=y`, replaceUrl() {} }),
    ).toBeNull()
    await startGoogle(client, 1_000)
    const state = sentState(calls)
    expect(
      takeCloudConsentReturn(client, {
        url: `${PAGE}?code=x&state=${state}`,
        now: 1_000 + CLOUD_CONSENT_MAX_AGE_MS + 1,
        replaceUrl() {},
      }),
    ).toBeNull()
  })

  it('iCloud: the ckWebAuthToken is the authorization code, bound to the kept state', async () => {
    const { client, calls } = setup()
    await startCloudConsent(client, {
      provider: 'icloud',
      action: 'recover',
      entropyId: '0x1111111111111111111111111111111111111111',
      redirectTo: PAGE,
      navigate() {},
    })
    const state = sentState(calls)
    const replaced: string[] = []
    const back = takeCloudConsentReturn(client, {
      url: `${PAGE}?ckWebAuthToken=abc%2Bdef`,
      replaceUrl: (u) => replaced.push(u),
    })
    expect(back).toMatchObject({
      ok: true,
      pending: { action: 'recover' },
      oauth: { provider: 'icloud', authorization_code: 'abc+def', state_code: state },
    })
    expect(replaced).toEqual([PAGE])
  })

  it("leaves another flow's return alone (a Google-style return while an iCloud consent is pending)", async () => {
    const { client } = setup()
    await startCloudConsent(client, {
      provider: 'icloud',
      action: 'recover',
      redirectTo: PAGE,
      navigate() {},
    })
    expect(
      takeCloudConsentReturn(client, { url: `${PAGE}?code=x&state=y`, replaceUrl() {} }),
    ).toBeNull()
    expect(sessionStorage.length).toBe(1)
  })
})
