import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  type CloudTestInstance,
  getCloudTestInstance,
  pkce,
  REDIRECT_TO,
  stateCode,
} from '../test/cloud.ts'
import { DRIVE_APPDATA_SCOPE } from './google.ts'

// Security bar 11 (RFC 7636, RFC 9700 §2.1.1): every Google consent carries an
// S256 challenge; the code is exchanged with the verifier, and a wrong one is
// refused by Google's token endpoint (here the fake) → 424.
let t: CloudTestInstance
let token: string
beforeAll(async () => {
  t = await getCloudTestInstance()
  token = await t.userToken('alice@example.com')
})
afterAll(() => t.close())

it('the consent URL asks for the Drive app-data scope with an S256 challenge and the state', async () => {
  const state = stateCode()
  const { challenge } = pkce()
  const res = await t.request(routes.recoveryOAuthInit, {
    token,
    body: {
      provider: 'google-drive',
      redirect_to: REDIRECT_TO,
      code_challenge: challenge,
      state_code: state,
    },
  })
  expect(res.status).toBe(200)
  const url = new URL(res.body.url)
  expect(`${url.origin}${url.pathname}`).toBe(t.google.authorizationUrl)
  expect(Object.fromEntries(url.searchParams)).toEqual({
    client_id: 'latchkey-test.apps.googleusercontent.com',
    redirect_uri: REDIRECT_TO,
    response_type: 'code',
    scope: DRIVE_APPDATA_SCOPE,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    prompt: 'select_account',
  })
})

it('init refuses a missing or malformed challenge (no plain method exists)', async () => {
  for (const code_challenge of [
    undefined,
    'short',
    pkce().verifier.slice(0, 42),
    `${'a'.repeat(42)}=`,
  ])
    expect(
      await t.request(routes.recoveryOAuthInit, {
        token,
        body: {
          provider: 'google-drive',
          redirect_to: REDIRECT_TO,
          code_challenge,
          code_challenge_method: 'plain',
          state_code: stateCode(),
        },
      }),
    ).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
})

it('the right verifier gets a Drive token that works on the Drive API', async () => {
  const consent = await t.googleConsent(token)
  const res = await t.enclaveRequest(routes.recoveryOAuthAuthenticate, {
    token,
    body: {
      provider: 'google-drive',
      authorization_code: consent.code,
      state_code: consent.state,
      code_verifier: consent.verifier,
    },
  })
  expect(res).toMatchObject({
    status: 200,
    body: { provider: 'google-drive', api_base_url: t.google.apiBaseUrl, expires_in: 3599 },
  })
  const files = await fetch(
    `${res.body.api_base_url}/drive/v3/files?spaces=appDataFolder&fields=files(id,name)`,
    { headers: { authorization: `Bearer ${res.body.access_token}` } },
  )
  expect(files.status).toBe(200)
})

it('a wrong verifier is refused by Google: 424 CLOUD_RECOVERY_FAILED', async () => {
  const consent = await t.googleConsent(token)
  const exchanges = t.google.tokenRequests
  const res = await t.enclaveRequest(routes.recoveryOAuthAuthenticate, {
    token,
    body: {
      provider: 'google-drive',
      authorization_code: consent.code,
      state_code: consent.state,
      code_verifier: pkce().verifier,
    },
  })
  expect(res).toMatchObject({ status: 424, body: { code: 'CLOUD_RECOVERY_FAILED' } })
  expect(res.body.message).toBe('Google refused the authorization code (invalid_grant)')
  expect(t.google.tokenRequests).toBe(exchanges + 1)
})

it('a Google Drive exchange without a verifier is 400 INVALID_PAYLOAD and leaves the state unspent', async () => {
  const consent = await t.googleConsent(token)
  const body = {
    provider: 'google-drive',
    authorization_code: consent.code,
    state_code: consent.state,
  }
  for (const code_verifier of [undefined, 'too-short', 'x'.repeat(129)])
    expect(
      await t.enclaveRequest(routes.recoveryOAuthAuthenticate, {
        token,
        body: { ...body, code_verifier },
      }),
    ).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
  expect(
    (
      await t.enclaveRequest(routes.recoveryOAuthAuthenticate, {
        token,
        body: { ...body, code_verifier: consent.verifier },
      })
    ).status,
  ).toBe(200)
})
