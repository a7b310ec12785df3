import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Logger } from '../config.ts'
import {
  type CloudTestInstance,
  GOOGLE_CLIENT,
  getCloudTestInstance,
  ICLOUD_CONTAINER,
  pkce,
  REDIRECT_TO,
  stateCode,
} from '../test/cloud.ts'
import { hdBody, recovery } from '../test/wallets.ts'

// Error mapping of cloud recovery (contract "Errors"): provider refusals and
// outages are 424 CLOUD_RECOVERY_FAILED saying which step failed; a method the
// app cannot serve is 400 CLOUD_RECOVERY_NOT_CONFIGURED. No answer and no log
// line carries a code, token or credential (security bar 50).
const logs: string[] = []
const logger: Logger = {
  info: (m) => logs.push(m),
  warn: (m) => logs.push(m),
  error: (m) => logs.push(m),
}
const secrets: string[] = [GOOGLE_CLIENT.clientSecret, ICLOUD_CONTAINER.apiToken]
const answers: unknown[] = []

let t: CloudTestInstance
let token: string
beforeAll(async () => {
  t = await getCloudTestInstance({ logger })
  token = await t.userToken('alice@example.com')
})
afterAll(() => t.close())

const authenticate = async (body: object, tok = token, appId?: string) => {
  const res = await t.enclaveRequest(routes.recoveryOAuthAuthenticate, {
    token: tok,
    body,
    ...(appId ? { appId } : {}),
  })
  answers.push(res.body)
  return res
}
const googleBody = (consent: { code: string; state: string; verifier: string }) => {
  secrets.push(consent.code, consent.verifier)
  return {
    provider: 'google-drive',
    authorization_code: consent.code,
    state_code: consent.state,
    code_verifier: consent.verifier,
  }
}
const failed = (message: string) => ({
  status: 424,
  body: { code: 'CLOUD_RECOVERY_FAILED', message },
})

describe('Google Drive', () => {
  it('a consent without the Drive app-data scope: 424 "did not grant"', async () => {
    const consent = await t.googleConsent(token, {
      scope: 'https://www.googleapis.com/auth/drive.file',
    })
    expect(await authenticate(googleBody(consent))).toMatchObject(
      failed('Google did not grant access to the Drive app-data folder'),
    )
  })

  it('a code Google does not know, or already redeemed: 424 "refused"', async () => {
    const consent = await t.googleConsent(token)
    expect(
      await authenticate({ ...googleBody(consent), authorization_code: '4/0Aforged' }),
    ).toMatchObject(failed('Google refused the authorization code (invalid_grant)'))
  })

  it('a wrong client secret: 424 "refused" (invalid_client)', async () => {
    const app = await t.createApp(t.app.settings)
    await t.server.setAppProviderCredentials(app.id, {
      provider: 'google-drive',
      client_id: GOOGLE_CLIENT.clientId,
      client_secret: 'not-the-secret',
    })
    const other =
      (await t.login('dave@example.com', { appId: app.id, enclaveKey: t.enclaveKey })).token ?? ''
    const { verifier, challenge } = pkce()
    const state = stateCode()
    const init = await t.request(routes.recoveryOAuthInit, {
      token: other,
      appId: app.id,
      body: {
        provider: 'google-drive',
        redirect_to: REDIRECT_TO,
        code_challenge: challenge,
        state_code: state,
      },
    })
    expect(init.status).toBe(200)
    const code = t.google.issueCode({
      clientId: GOOGLE_CLIENT.clientId,
      redirectUri: REDIRECT_TO,
      codeChallenge: challenge,
      account: 'alice@example.com',
    })
    const res = await authenticate(googleBody({ code, state, verifier }), other, app.id)
    expect(res).toMatchObject({ status: 424, body: { code: 'CLOUD_RECOVERY_FAILED' } })
    expect(res.body.message).toMatch(/^Google refused the authorization code \(invalid_client\)$/)
  })

  it('Google unreachable: 424 "could not be reached"', async () => {
    const down = await getCloudTestInstance({
      logger,
      cloudRecovery: {
        google: { tokenUrl: 'http://127.0.0.1:9/token' },
      },
    })
    try {
      const tok = await down.userToken('erin@example.com')
      const consent = await down.googleConsent(tok)
      const res = await down.enclaveRequest(routes.recoveryOAuthAuthenticate, {
        token: tok,
        body: googleBody(consent),
      })
      answers.push(res.body)
      expect(res).toMatchObject(failed('Google could not be reached'))
    } finally {
      await down.close()
    }
  })
})

describe('iCloud', () => {
  it("the sign-in URL is the one CloudKit offers for the app's API token", async () => {
    const consent = await t.icloudConsent(token)
    expect(consent.url.origin).toBe(new URL(t.cloudKit.url).origin)
    expect(consent.url.searchParams.get('ckAPIToken')).toBe(ICLOUD_CONTAINER.apiToken)
  })

  it('an API token CloudKit refuses: 424 "refused"', async () => {
    const app = await t.createApp(t.app.settings)
    await t.server.setAppProviderCredentials(app.id, {
      provider: 'icloud',
      container_id: ICLOUD_CONTAINER.containerId,
      environment: 'development',
      api_token: 'wrong-token',
    })
    const other =
      (await t.login('frank@example.com', { appId: app.id, enclaveKey: t.enclaveKey })).token ?? ''
    const before = await t.countRows('recovery_oauth_states')
    const res = await t.request(routes.recoveryOAuthInitIcloud, {
      token: other,
      appId: app.id,
      body: { client_type: 'web', redirect_to: REDIRECT_TO, state_code: stateCode() },
    })
    expect(res).toMatchObject(
      failed("CloudKit refused the app's container or API token (AUTHENTICATION_FAILED)"),
    )
    expect(await t.countRows('recovery_oauth_states')).toBe(before)
  })

  it('a container CloudKit does not know: 424', async () => {
    const app = await t.createApp(t.app.settings)
    await t.server.setAppProviderCredentials(app.id, {
      provider: 'icloud',
      container_id: 'iCloud.other.container',
      environment: 'production',
      api_token: ICLOUD_CONTAINER.apiToken,
    })
    const other =
      (await t.login('gina@example.com', { appId: app.id, enclaveKey: t.enclaveKey })).token ?? ''
    const res = await t.request(routes.recoveryOAuthInitIcloud, {
      token: other,
      appId: app.id,
      body: { client_type: 'web', redirect_to: REDIRECT_TO, state_code: stateCode() },
    })
    expect(res).toMatchObject({ status: 424, body: { code: 'CLOUD_RECOVERY_FAILED' } })
  })

  it('CloudKit unreachable: 424 "could not be reached"', async () => {
    const down = await getCloudTestInstance({
      logger,
      cloudRecovery: { icloud: { apiBaseUrl: 'http://127.0.0.1:9' } },
    })
    try {
      const tok = await down.userToken('hank@example.com')
      const res = await down.request(routes.recoveryOAuthInitIcloud, {
        token: tok,
        body: { client_type: 'web', redirect_to: REDIRECT_TO, state_code: stateCode() },
      })
      expect(res).toMatchObject(failed('CloudKit could not be reached'))
    } finally {
      await down.close()
    }
  })

  it('authenticate hands back the web auth token with the container, environment and API token', async () => {
    const consent = await t.icloudConsent(token)
    secrets.push(consent.code)
    const res = await t.enclaveRequest(routes.recoveryOAuthAuthenticate, {
      token,
      body: { provider: 'icloud', authorization_code: consent.code, state_code: consent.state },
    })
    expect(res).toEqual(
      expect.objectContaining({
        status: 200,
        body: {
          provider: 'icloud',
          access_token: consent.code,
          api_base_url: t.cloudKit.apiBaseUrl,
          container_id: ICLOUD_CONTAINER.containerId,
          environment: 'development',
          api_token: ICLOUD_CONTAINER.apiToken,
        },
      }),
    )
    // The token works on CloudKit's private database.
    const lookup = new URL(
      `${res.body.api_base_url}/database/1/${res.body.container_id}/${res.body.environment}/private/records/lookup`,
    )
    lookup.searchParams.set('ckAPIToken', res.body.api_token)
    lookup.searchParams.set('ckWebAuthToken', res.body.access_token)
    const records = await fetch(lookup, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ records: [{ recordName: 'latchkey-recovery-none' }] }),
    })
    expect(records.status).toBe(200)
  })
})

describe('not configured', () => {
  const initBoth = (tok: string, appId: string) =>
    Promise.all([
      t.request(routes.recoveryOAuthInit, {
        token: tok,
        appId,
        body: {
          provider: 'google-drive',
          redirect_to: REDIRECT_TO,
          code_challenge: pkce().challenge,
          state_code: stateCode(),
        },
      }),
      t.request(routes.recoveryOAuthInitIcloud, {
        token: tok,
        appId,
        body: { client_type: 'web', redirect_to: REDIRECT_TO, state_code: stateCode() },
      }),
    ])
  const notConfigured = { status: 400, body: { code: 'CLOUD_RECOVERY_NOT_CONFIGURED' } }

  it('offered without credentials, or credentials without the offer: 400 CLOUD_RECOVERY_NOT_CONFIGURED', async () => {
    const offeredOnly = await t.createApp(t.app.settings)
    const credentialsOnly = await t.createApp({})
    for (const provider of ['google-drive', 'icloud'] as const)
      await t.server.setAppProviderCredentials(
        credentialsOnly.id,
        provider === 'google-drive'
          ? { provider, client_id: 'x', client_secret: 'y' }
          : {
              provider,
              container_id: ICLOUD_CONTAINER.containerId,
              environment: 'development',
              api_token: ICLOUD_CONTAINER.apiToken,
            },
      )
    for (const app of [offeredOnly, credentialsOnly]) {
      const tok =
        (await t.login('ivy@example.com', { appId: app.id, enclaveKey: t.enclaveKey })).token ?? ''
      for (const res of await initBoth(tok, app.id)) expect(res).toMatchObject(notConfigured)
    }
  })

  it('an app that stops offering a method still lets users with such a backup recover', async () => {
    const app = await t.createApp(t.app.settings)
    await t.server.setAppProviderCredentials(app.id, {
      provider: 'google-drive',
      client_id: GOOGLE_CLIENT.clientId,
      client_secret: GOOGLE_CLIENT.clientSecret,
    })
    const owner =
      (await t.login('kim@example.com', { appId: app.id, enclaveKey: t.enclaveKey })).token ?? ''
    const body = hdBody({ recovery: recovery('google-drive') })
    const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
      token: owner,
      appId: app.id,
      body,
    })
    expect(created.status).toBe(200)
    await t.db
      .updateTable('apps')
      .set({ settings: JSON.stringify({}) })
      .where('id', '=', app.id)
      .execute()
    t.server.services.apps.invalidate(app.id)
    const newcomer =
      (await t.login('lou@example.com', { appId: app.id, enclaveKey: t.enclaveKey })).token ?? ''
    const [google] = await initBoth(newcomer, app.id)
    expect(google).toMatchObject(notConfigured)
    const [ownerGoogle, ownerIcloud] = await initBoth(owner, app.id)
    expect(ownerGoogle?.status).toBe(200)
    expect(ownerIcloud).toMatchObject(notConfigured)
  })

  it('credentials deleted between init and authenticate: 400 CLOUD_RECOVERY_NOT_CONFIGURED', async () => {
    const app = await t.createApp(t.app.settings)
    await t.server.setAppProviderCredentials(app.id, {
      provider: 'icloud',
      container_id: ICLOUD_CONTAINER.containerId,
      environment: 'development',
      api_token: ICLOUD_CONTAINER.apiToken,
    })
    const tok =
      (await t.login('jack@example.com', { appId: app.id, enclaveKey: t.enclaveKey })).token ?? ''
    const state = stateCode()
    const init = await t.request(routes.recoveryOAuthInitIcloud, {
      token: tok,
      appId: app.id,
      body: { client_type: 'web', redirect_to: REDIRECT_TO, state_code: state },
    })
    expect(init.status).toBe(200)
    expect(await t.server.deleteAppProviderCredentials(app.id, 'icloud')).toBe(true)
    expect(
      await authenticate(
        {
          provider: 'icloud',
          authorization_code: t.cloudKit.issueWebAuthToken('alice@icloud.com'),
          state_code: state,
        },
        tok,
        app.id,
      ),
    ).toMatchObject(notConfigured)
  })
})

it('no answer and no log line carries a code, verifier, token or credential', () => {
  expect(logs.some((l) => l.includes('cloud recovery:'))).toBe(true)
  const text = `${logs.join('\n')}\n${JSON.stringify(answers.filter((a) => !(a as { access_token?: unknown })?.access_token))}`
  for (const secret of secrets) expect(text).not.toContain(secret)
})
