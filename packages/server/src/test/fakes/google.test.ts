import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DRIVE_APPDATA_SCOPE, type FakeGoogle, startFakeGoogle } from './index.ts'

const CLIENT = { clientId: 'client-1', clientSecret: 'secret-1' }
const REDIRECT = 'http://app.test/return'

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

let google: FakeGoogle
beforeAll(async () => {
  google = await startFakeGoogle({
    clients: [CLIENT, { clientId: 'client-2', clientSecret: 's2' }],
  })
})
afterAll(() => google.close())

function exchange(form: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(google.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  })
}

async function accessToken(account = 'alice@example.com', clientId = CLIENT.clientId) {
  const { verifier, challenge } = pkce()
  const code = google.issueCode({
    clientId,
    redirectUri: REDIRECT,
    codeChallenge: challenge,
    account,
  })
  const secret = clientId === CLIENT.clientId ? CLIENT.clientSecret : 's2'
  const res = await exchange({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id: clientId,
    client_secret: secret,
    code_verifier: verifier,
  })
  return ((await res.json()) as { access_token: string }).access_token
}

async function upload(token: string, name: string, content: string) {
  const boundary = 'b0undary'
  const body =
    `--${boundary}\r\ncontent-type: application/json; charset=UTF-8\r\n\r\n` +
    `${JSON.stringify({ name, parents: ['appDataFolder'], mimeType: 'application/json' })}\r\n` +
    `--${boundary}\r\ncontent-type: application/json\r\n\r\n${content}\r\n--${boundary}--`
  return fetch(`${google.apiBaseUrl}/upload/drive/v3/files?uploadType=multipart`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/related; boundary=${boundary}`,
    },
    body,
  })
}

const list = (token: string, name: string) => {
  const q = `name = '${name}' and trashed = false`
  const params = new URLSearchParams({ spaces: 'appDataFolder', q, fields: 'files(id,name)' })
  return fetch(`${google.apiBaseUrl}/drive/v3/files?${params}`, {
    headers: { authorization: `Bearer ${token}` },
  })
}

describe('fake Google OAuth', () => {
  it('consent page approves with code, state and scope; cancel answers access_denied', async () => {
    const { challenge } = pkce()
    const params = new URLSearchParams({
      client_id: CLIENT.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: DRIVE_APPDATA_SCOPE,
      state: 'st4te',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })
    const consent = await fetch(`${google.authorizationUrl}?${params}`)
    const html = await consent.text()
    expect(html).toContain('data-account="alice@example.com"')
    expect(html).toContain('data-action="cancel"')
    const requestId = /name="request" value="([^"]+)"/.exec(html)?.[1] ?? ''
    const approve = `${google.url}/o/oauth2/v2/approve?request=${requestId}`
    const res = await fetch(`${approve}&account=alice%40example.com`, { redirect: 'manual' })
    const back = new URL(res.headers.get('location') ?? '')
    expect(back.origin + back.pathname).toBe(REDIRECT)
    expect(back.searchParams.get('state')).toBe('st4te')
    expect(back.searchParams.get('code')).toBeTruthy()
    expect(back.searchParams.get('scope')).toBe(DRIVE_APPDATA_SCOPE)
    // The consent request is single use.
    expect((await fetch(`${approve}&account=alice%40example.com`)).status).toBe(400)

    const again = await (await fetch(`${google.authorizationUrl}?${params}`)).text()
    const id2 = /name="request" value="([^"]+)"/.exec(again)?.[1] ?? ''
    const cancel = await fetch(`${google.url}/o/oauth2/v2/approve?request=${id2}&action=cancel`, {
      redirect: 'manual',
    })
    const cancelled = new URL(cancel.headers.get('location') ?? '')
    expect(cancelled.searchParams.get('error')).toBe('access_denied')
    expect(cancelled.searchParams.get('state')).toBe('st4te')
  })

  it('authorize rejects a missing PKCE challenge and unknown clients with an error page', async () => {
    const base = { client_id: CLIENT.clientId, redirect_uri: REDIRECT, response_type: 'code' }
    const noPkce = new URLSearchParams({ ...base, scope: DRIVE_APPDATA_SCOPE, state: 's' })
    expect((await fetch(`${google.authorizationUrl}?${noPkce}`)).status).toBe(400)
    const unknown = new URLSearchParams({ ...base, client_id: 'nope' })
    expect((await fetch(`${google.authorizationUrl}?${unknown}`)).status).toBe(401)
  })

  it('token endpoint: PKCE, redirect_uri, client auth, single use', async () => {
    const { verifier, challenge } = pkce()
    const issue = () =>
      google.issueCode({
        clientId: CLIENT.clientId,
        redirectUri: REDIRECT,
        codeChallenge: challenge,
        account: 'alice@example.com',
      })
    const form = (code: string) => ({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
      code_verifier: verifier,
    })

    const wrongVerifier = await exchange({ ...form(issue()), code_verifier: pkce().verifier })
    expect(wrongVerifier.status).toBe(400)
    expect(await wrongVerifier.json()).toMatchObject({ error: 'invalid_grant' })

    const wrongRedirect = await exchange({ ...form(issue()), redirect_uri: 'http://app.test/x' })
    expect(await wrongRedirect.json()).toMatchObject({ error: 'redirect_uri_mismatch' })

    const badSecret = await exchange({ ...form(issue()), client_secret: 'nope' })
    expect(badSecret.status).toBe(401)
    expect(await badSecret.json()).toMatchObject({ error: 'invalid_client' })

    const code = issue()
    const { client_id: _id, client_secret: _secret, ...noClient } = form(code)
    const basic = Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString('base64')
    const ok = await exchange(noClient, { authorization: `Basic ${basic}` })
    expect(ok.status).toBe(200)
    const token = await ok.json()
    expect(token).toMatchObject({
      expires_in: 3599,
      scope: DRIVE_APPDATA_SCOPE,
      token_type: 'Bearer',
    })

    const before = google.tokenRequests
    const replay = await exchange(form(code))
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant' })
    expect(google.tokenRequests).toBe(before + 1)
    // The replay revoked the token the code was exchanged for (RFC 6749 §4.1.2).
    expect((await list(token.access_token, 'x')).status).toBe(401)
  })
})

describe('fake Drive v3 appDataFolder', () => {
  it('uploads, finds by name, downloads and deletes', async () => {
    const token = await accessToken()
    const created = await upload(token, 'key.json', '{"a":1}')
    expect(created.status).toBe(200)
    const file = (await created.json()) as { id: string; name: string }
    expect(file).toMatchObject({ kind: 'drive#file', name: 'key.json' })

    const found = await (await list(token, 'key.json')).json()
    expect(found).toEqual({ files: [{ id: file.id, name: 'key.json' }] })
    expect(google.files('alice@example.com')).toContainEqual({
      id: file.id,
      name: 'key.json',
      content: '{"a":1}',
    })

    const auth = { authorization: `Bearer ${token}` }
    const media = await fetch(`${google.apiBaseUrl}/drive/v3/files/${file.id}?alt=media`, {
      headers: auth,
    })
    expect(await media.text()).toBe('{"a":1}')
    const del = await fetch(`${google.apiBaseUrl}/drive/v3/files/${file.id}`, {
      method: 'DELETE',
      headers: auth,
    })
    expect(del.status).toBe(204)
    const gone = await fetch(`${google.apiBaseUrl}/drive/v3/files/${file.id}?alt=media`, {
      headers: auth,
    })
    expect(gone.status).toBe(404)
    expect(await gone.json()).toMatchObject({
      error: { code: 404, errors: [{ reason: 'notFound' }] },
    })
  })

  it("keeps each account's and each app's folder to itself", async () => {
    const alice = await accessToken('alice@example.com')
    await upload(alice, 'private.json', '{}')
    const bob = await accessToken('bob@example.com')
    expect(await (await list(bob, 'private.json')).json()).toEqual({ files: [] })
    const otherApp = await accessToken('alice@example.com', 'client-2')
    expect(await (await list(otherApp, 'private.json')).json()).toEqual({ files: [] })
  })

  it('checks the bearer token, the scope and the space', async () => {
    const bad = await list('ya29.nope', 'x')
    expect(bad.status).toBe(401)
    expect(await bad.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } })

    const { verifier, challenge } = pkce()
    const code = google.issueCode({
      clientId: CLIENT.clientId,
      redirectUri: REDIRECT,
      codeChallenge: challenge,
      account: 'alice@example.com',
      scope: 'openid email',
    })
    const res = await exchange({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
      code_verifier: verifier,
    })
    const { access_token } = (await res.json()) as { access_token: string }
    expect((await list(access_token, 'x')).status).toBe(403)

    const token = await accessToken()
    const myDrive = await fetch(`${google.apiBaseUrl}/drive/v3/files?spaces=drive`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(myDrive.status).toBe(403)
  })

  it('answers CORS preflights', async () => {
    const res = await fetch(`${google.apiBaseUrl}/drive/v3/files`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://enclave.test',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization')
  })
})
