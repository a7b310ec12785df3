import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose'
import Provider from 'oidc-provider'

/*
 * Local identity providers for OAuth login tests (server tests in process,
 * browser tests in e2e/ through a real redirect): a real OpenID Provider (panva's
 * `oidc-provider`) on 127.0.0.1, and a small server answering like GitHub's
 * OAuth + REST API. Point a Latchkey provider at them with the server option
 * `oauth: { endpoints: { google: oidc.endpoints, github: gh.endpoints } }`.
 */

export interface TestOidcAccount {
  sub: string
  email?: string
  email_verified?: boolean
  name?: string
  picture?: string
}

export interface TestOidcProvider {
  issuer: string
  clientId: string
  clientSecret: string
  /** Endpoints for the server option `oauth.endpoints.<provider>` (an id_token provider). */
  endpoints: { authorizationUrl: string; tokenUrl: string; issuer: string; jwksUrl: string }
  /** Accounts that can log in (default: alice). */
  accounts: Map<string, TestOidcAccount>
  /**
   * Replaces the client's registered redirect URIs, for a caller that learns
   * its page's URL only after it handed out the provider's endpoints (the
   * browser tests: the server needs the issuer before the demo can start).
   * Authorizations in flight are dropped; keys and client stay the same.
   */
  setRedirectUris(uris: string[]): void
  /**
   * Follows an authorization URL like a browser whose user logs in as
   * `accountId` (or denies) and returns the URL the provider sends back to
   * (redirect_uri with `code` and `state`, or `error`).
   */
  authorize(url: string, options?: { accountId?: string; deny?: boolean }): Promise<URL>
  /** Signs an id_token with the provider's key, or with a foreign key (`foreign: true`). */
  signIdToken(claims: Record<string, unknown>, options?: { foreign?: boolean }): Promise<string>
  close(): Promise<void>
}

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  )

/** Follows redirects by hand, keeping cookies, until one leaves `origin`. */
async function followUntilLeaving(start: string, origin: string): Promise<URL> {
  const jar = new Map<string, string>()
  let url = new URL(start)
  for (let hop = 0; hop < 10; hop++) {
    if (url.origin !== origin) return url
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
    const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} })
    for (const set of response.headers.getSetCookie()) {
      const pair = set.split(';')[0] ?? ''
      const eq = pair.indexOf('=')
      if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1))
    }
    const location = response.headers.get('location')
    if (!location) throw new Error(`test OIDC: ${url.pathname} answered ${response.status}`)
    url = new URL(location, url)
  }
  throw new Error('test OIDC: too many redirects')
}

/**
 * Starts an OpenID Provider with one confidential client (authorization code,
 * PKCE S256, client_secret_post) whose redirect URIs are `redirectUris`.
 * Logging in picks the account named by `login_hint` (the `authorize`
 * helper adds it), else the first account; consent is granted automatically;
 * `login_hint=__deny__` denies (`error=access_denied`). A browser can be
 * sent to `endpoints.authorizationUrl` as well: the interaction step needs
 * no form.
 *
 * @example
 * const oidc = await startTestOidcProvider({ redirectUris: ['http://app.test/'] })
 * const server = await createLatchkeyServer({ oauth: { endpoints: { google: oidc.endpoints } } })
 */
export async function startTestOidcProvider(options: {
  redirectUris: string[]
  accounts?: TestOidcAccount[]
}): Promise<TestOidcProvider> {
  const accounts = new Map<string, TestOidcAccount>(
    (
      options.accounts ?? [
        { sub: 'alice', email: 'alice@example.com', email_verified: true, name: 'Alice' },
      ]
    ).map((a) => [a.sub, a]),
  )
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const foreign = await generateKeyPair('RS256', { extractable: true })
  const kid = randomUUID()
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' }
  const clientId = `client-${randomBytes(4).toString('hex')}`
  const clientSecret = randomBytes(24).toString('base64url')
  const cookieKey = randomBytes(16).toString('hex')

  const http = createServer()
  const port = await listen(http)
  const issuer = `http://127.0.0.1:${port}`
  // oidc-provider reads static clients once: a new redirect URI needs a new instance.
  const build = (redirectUris: string[]) =>
    new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys: [jwk] },
      cookies: { keys: [cookieKey] },
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name', 'picture'],
      },
      conformIdTokenClaims: false,
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        IdToken: 600,
        Interaction: 600,
        Grant: 600,
        Session: 600,
      },
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      interactions: {
        url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
      },
      async findAccount(_ctx: unknown, id: string) {
        const account = accounts.get(id)
        if (!account) return undefined
        return { accountId: id, claims: async () => ({ ...account }) }
      },
      async loadExistingGrant(ctx: {
        oidc: {
          provider: Provider
          client?: { clientId: string }
          session?: { accountId?: string }
        }
      }) {
        const grant = new ctx.oidc.provider.Grant({
          clientId: ctx.oidc.client?.clientId,
          accountId: ctx.oidc.session?.accountId,
        })
        grant.addOIDCScope('openid email profile')
        await grant.save()
        return grant
      },
    } as never)
  let provider = build(options.redirectUris)
  let callback = provider.callback()
  http.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    const match = req.url?.match(/^\/interaction\/([^/?]+)/)
    if (!match) return callback(req, res)
    try {
      const details = await provider.interactionDetails(req, res)
      const url = new URL(req.url ?? '/', issuer)
      if (url.searchParams.get('deny') === '1' || details.params.login_hint === '__deny__') {
        await provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'The user denied the request' },
          { mergeWithLastSubmission: false },
        )
        return
      }
      const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : ''
      const accountId = accounts.has(hint) ? hint : [...accounts.keys()][0]
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId } },
        { mergeWithLastSubmission: false },
      )
    } catch (error) {
      res.statusCode = 400
      res.end(String((error as Error).message))
    }
  })

  return {
    issuer,
    clientId,
    clientSecret,
    endpoints: {
      authorizationUrl: `${issuer}/auth`,
      tokenUrl: `${issuer}/token`,
      issuer,
      jwksUrl: `${issuer}/jwks`,
    },
    accounts,
    setRedirectUris(uris) {
      provider = build(uris)
      callback = provider.callback()
    },
    async authorize(url, opts = {}) {
      const start = new URL(url)
      start.searchParams.set('login_hint', opts.deny ? '__deny__' : (opts.accountId ?? ''))
      if (!opts.deny && !opts.accountId) start.searchParams.delete('login_hint')
      return followUntilLeaving(start.href, issuer)
    },
    async signIdToken(claims, opts = {}) {
      const key = opts.foreign ? foreign.privateKey : privateKey
      const now = Math.floor(Date.now() / 1000)
      return new SignJWT({ iat: now, exp: now + 300, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid })
        .sign(key)
    },
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  }
}

export interface TestGithubAccount {
  id: number
  login: string
  name: string | null
  emails: Array<{ email: string; primary: boolean; verified: boolean }>
  /** GitHub suspended the account: `/user` answers 403 "Sorry. Your account was suspended." */
  suspended?: boolean
  /** The `scope` the token answer reports (default: what was asked, `read:user,user:email`). */
  grantedScope?: string
}

export interface TestGithub {
  clientId: string
  clientSecret: string
  /** Endpoints for the server option `oauth.endpoints.github`. */
  endpoints: {
    authorizationUrl: string
    tokenUrl: string
    userinfoUrl: string
    emailsUrl: string
  }
  accounts: Map<string, TestGithubAccount>
  /**
   * What GitHub does when the user approves (or denies) an authorization
   * URL: the redirect back with `code` and `state` (or `error=access_denied`).
   */
  authorize(url: string, options?: { login?: string; deny?: boolean }): Promise<URL>
  close(): Promise<void>
}

/**
 * A server answering like GitHub's documented OAuth web flow
 * (`/login/oauth/authorize`, `/login/oauth/access_token` with JSON errors
 * under HTTP 200, PKCE S256) and REST API (`/user`, `/user/emails`). A
 * browser sent to `/login/oauth/authorize` is treated as a user who approves
 * at once, as the account named by GitHub's `login` parameter (else the
 * first); an unknown `client_id` comes back as `error=access_denied`.
 */
export async function startTestGithub(options?: {
  accounts?: TestGithubAccount[]
}): Promise<TestGithub> {
  const accounts = new Map<string, TestGithubAccount>(
    (
      options?.accounts ?? [
        {
          id: 4242,
          login: 'octocat',
          name: 'The Octocat',
          emails: [
            { email: 'unverified@example.com', primary: false, verified: false },
            { email: 'Octo@Example.com', primary: true, verified: true },
          ],
        },
      ]
    ).map((a) => [a.login, a]),
  )
  const clientId = `Iv1.${randomBytes(8).toString('hex')}`
  const clientSecret = randomBytes(20).toString('hex')
  const codes = new Map<
    string,
    { login: string; redirectUri: string; challenge: string | null; clientId: string }
  >()
  const tokens = new Map<string, string>()
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  /** The redirect back for an authorization request whose user approves as `login` (or denies). */
  const decide = (request: URL, opts: { login?: string; deny?: boolean }): URL => {
    const back = new URL(request.searchParams.get('redirect_uri') ?? '')
    back.searchParams.set('state', request.searchParams.get('state') ?? '')
    if (opts.deny || request.searchParams.get('client_id') !== clientId) {
      back.searchParams.set('error', 'access_denied')
      return back
    }
    const code = randomBytes(10).toString('hex')
    codes.set(code, {
      login: opts.login ?? [...accounts.keys()][0] ?? '',
      redirectUri: request.searchParams.get('redirect_uri') ?? '',
      challenge: request.searchParams.get('code_challenge'),
      clientId,
    })
    back.searchParams.set('code', code)
    return back
  }
  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      if (!URL.canParse(url.searchParams.get('redirect_uri') ?? ''))
        return json(res, 400, { message: 'redirect_uri is missing or invalid' })
      const login = url.searchParams.get('login') ?? ''
      const back = decide(url, { login: accounts.has(login) ? login : undefined })
      res.writeHead(302, { location: back.href }).end()
      return
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      let text = ''
      for await (const chunk of req) text += chunk
      const form = new URLSearchParams(text)
      if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret)
        return json(res, 200, { error: 'incorrect_client_credentials' })
      const code = codes.get(form.get('code') ?? '')
      if (!code || code.redirectUri !== form.get('redirect_uri'))
        return json(res, 200, { error: 'bad_verification_code' })
      codes.delete(form.get('code') ?? '')
      const verifier = form.get('code_verifier') ?? ''
      if (
        code.challenge &&
        createHash('sha256').update(verifier).digest('base64url') !== code.challenge
      )
        return json(res, 200, { error: 'bad_verification_code' })
      const token = `gho_${randomBytes(18).toString('hex')}`
      tokens.set(token, code.login)
      return json(res, 200, {
        access_token: token,
        token_type: 'bearer',
        scope: accounts.get(code.login)?.grantedScope ?? 'read:user,user:email',
      })
    }
    const login = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''))
    const account = login ? accounts.get(login) : undefined
    if (url.pathname === '/user' || url.pathname === '/user/emails') {
      if (!account) return json(res, 401, { message: 'Bad credentials' })
      if (account.suspended)
        return json(res, 403, { message: 'Sorry. Your account was suspended.' })
      if (url.pathname === '/user/emails') return json(res, 200, account.emails)
      return json(res, 200, {
        id: account.id,
        login: account.login,
        name: account.name,
        email: null,
        avatar_url: `https://avatars.example/u/${account.id}`,
      })
    }
    json(res, 404, { message: 'Not Found' })
  })
  const port = await listen(http)
  const base = `http://127.0.0.1:${port}`
  return {
    clientId,
    clientSecret,
    endpoints: {
      authorizationUrl: `${base}/login/oauth/authorize`,
      tokenUrl: `${base}/login/oauth/access_token`,
      userinfoUrl: `${base}/user`,
      emailsUrl: `${base}/user/emails`,
    },
    accounts,
    async authorize(url, opts = {}) {
      return decide(new URL(url), opts)
    },
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  }
}
