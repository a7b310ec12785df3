import type { OAuthProvider } from '@latchkey/protocol'

/*
 * The OAuth login providers, declaratively (docs/login-oauth.md): where to
 * send the user, where to exchange the code, how the client authenticates
 * there, and where the identity comes from — a verified OIDC id_token
 * (issuer + JWKS, via `jose`) or the provider's user endpoint called with the
 * access token — and how to read subject, name, email, username and picture
 * from it. Adding a provider means adding one entry here.
 */

/** The URLs of a provider; each can be overridden per server (`oauth.endpoints`). */
export interface OAuthEndpoints {
  authorizationUrl: string
  tokenUrl: string
  /** The user endpoint (identity `userinfo`), called with `Authorization: Bearer`. */
  userinfoUrl?: string
  /** GitHub only: the user's addresses, for a verified primary email. */
  emailsUrl?: string
  /** Expected `iss` of the id_token (identity `id_token`). */
  issuer?: string
  jwksUrl?: string
}

/** What Latchkey keeps of a provider account (the linked account's fields). */
export interface OAuthProfile {
  subject: string
  email: string | null
  name: string | null
  username: string | null
  picture: string | null
}

type Json = Record<string, unknown>

export interface OAuthProviderSpec {
  /** Display name, for logs and messages. */
  name: string
  endpoints: OAuthEndpoints
  scopes: readonly string[]
  /** How scopes are joined in the authorization URL (TikTok, Instagram: comma). */
  scopeSeparator?: ' ' | ','
  /**
   * Names the token answer may report a granted scope by, with the asked
   * scopes each covers (Google reports `email` as its userinfo URL; GitHub's
   * `user` covers `read:user` and `user:email`). See `missingScopes`.
   */
  grantedScopeAliases?: Readonly<Record<string, readonly string[]>>
  /** Send the S256 challenge to the provider (Latchkey checks the verifier itself in any case). */
  pkce: boolean
  /** How the client authenticates at the token endpoint (RFC 6749 §2.3.1). */
  tokenAuth: 'client_secret_post' | 'client_secret_basic'
  /** Name of the client id parameter (TikTok: `client_key`). */
  clientIdParam?: string
  /** Where the identity is read from. */
  identity: 'id_token' | 'userinfo'
  /** Extra authorization URL parameters. */
  authorizeParams?: Readonly<Record<string, string>>
  /** Reads the profile from verified id_token claims or the user endpoint's JSON; null if unusable. */
  profile: (data: Json) => OAuthProfile | null
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)
const id = (v: unknown): string | null =>
  typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : str(v)
const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {})
/** An email only when the provider says it is verified (security bar 14). */
const verifiedEmail = (email: unknown, verified: unknown): string | null =>
  verified === true || verified === 'true' ? (str(email)?.toLowerCase() ?? null) : null

const profileOf = (subject: string | null, rest: Omit<OAuthProfile, 'subject'>) =>
  subject ? { subject, ...rest } : null

/** Standard OIDC claims (Google, LinkedIn, LINE userinfo, test providers). */
const oidcClaims = (c: Json): OAuthProfile | null =>
  profileOf(str(c.sub), {
    email: verifiedEmail(c.email, c.email_verified),
    name: str(c.name),
    username: str(c.preferred_username),
    picture: str(c.picture),
  })

export const OAUTH_PROVIDER_SPECS: Readonly<Record<OAuthProvider, OAuthProviderSpec>> = {
  // https://developers.google.com/identity/openid-connect/openid-connect
  google: {
    name: 'Google',
    endpoints: {
      authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      issuer: 'https://accounts.google.com',
      jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
    },
    scopes: ['openid', 'email', 'profile'],
    grantedScopeAliases: {
      'https://www.googleapis.com/auth/userinfo.email': ['email'],
      'https://www.googleapis.com/auth/userinfo.profile': ['profile'],
    },
    pkce: true,
    tokenAuth: 'client_secret_post',
    identity: 'id_token',
    profile: oidcClaims,
  },
  // https://developer.apple.com/documentation/sign_in_with_apple/request_an_authorization_to_the_sign_in_with_apple_server
  // No scopes: Apple requires response_mode=form_post when name/email are asked
  // for, and a single-page app cannot receive a POST. The client secret is the
  // ES256 JWT the app signs with its key (docs/login-oauth.md).
  apple: {
    name: 'Apple',
    endpoints: {
      authorizationUrl: 'https://appleid.apple.com/auth/authorize',
      tokenUrl: 'https://appleid.apple.com/auth/token',
      issuer: 'https://appleid.apple.com',
      jwksUrl: 'https://appleid.apple.com/auth/keys',
    },
    scopes: [],
    pkce: false,
    tokenAuth: 'client_secret_post',
    identity: 'id_token',
    authorizeParams: { response_mode: 'query' },
    profile: (c) =>
      profileOf(str(c.sub), {
        email: verifiedEmail(c.email, c.email_verified),
        name: null,
        username: null,
        picture: null,
      }),
  },
  // https://discord.com/developers/docs/topics/oauth2
  discord: {
    name: 'Discord',
    endpoints: {
      authorizationUrl: 'https://discord.com/oauth2/authorize',
      tokenUrl: 'https://discord.com/api/oauth2/token',
      userinfoUrl: 'https://discord.com/api/users/@me',
    },
    scopes: ['identify', 'email'],
    pkce: true,
    tokenAuth: 'client_secret_post',
    identity: 'userinfo',
    profile: (u) =>
      profileOf(str(u.id), {
        email: verifiedEmail(u.email, u.verified),
        name: str(u.global_name),
        username: str(u.username),
        picture:
          str(u.id) && str(u.avatar)
            ? `https://cdn.discordapp.com/avatars/${u.id}/${u.avatar}.png`
            : null,
      }),
  },
  // https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
  github: {
    name: 'GitHub',
    endpoints: {
      authorizationUrl: 'https://github.com/login/oauth/authorize',
      tokenUrl: 'https://github.com/login/oauth/access_token',
      userinfoUrl: 'https://api.github.com/user',
      emailsUrl: 'https://api.github.com/user/emails',
    },
    scopes: ['read:user', 'user:email'],
    // https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/scopes-for-oauth-apps
    grantedScopeAliases: { user: ['read:user', 'user:email'] },
    pkce: true,
    tokenAuth: 'client_secret_post',
    identity: 'userinfo',
    profile: (u) =>
      profileOf(id(u.id), {
        // /user's email is the public one, not necessarily verified: read /user/emails.
        email: null,
        name: str(u.name),
        username: str(u.login),
        picture: str(u.avatar_url),
      }),
  },
  // https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2
  linkedin: {
    name: 'LinkedIn',
    endpoints: {
      authorizationUrl: 'https://www.linkedin.com/oauth/v2/authorization',
      tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
      userinfoUrl: 'https://api.linkedin.com/v2/userinfo',
    },
    scopes: ['openid', 'profile', 'email'],
    pkce: false,
    tokenAuth: 'client_secret_post',
    identity: 'userinfo',
    profile: oidcClaims,
  },
  // https://developer.spotify.com/documentation/web-api/tutorials/code-flow
  spotify: {
    name: 'Spotify',
    endpoints: {
      authorizationUrl: 'https://accounts.spotify.com/authorize',
      tokenUrl: 'https://accounts.spotify.com/api/token',
      userinfoUrl: 'https://api.spotify.com/v1/me',
    },
    scopes: ['user-read-email'],
    pkce: true,
    tokenAuth: 'client_secret_basic',
    identity: 'userinfo',
    profile: (u) =>
      profileOf(str(u.id), {
        // Spotify does not verify addresses.
        email: null,
        name: str(u.display_name),
        username: str(u.id),
        picture: Array.isArray(u.images) ? str(obj(u.images[0]).url) : null,
      }),
  },
  // https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login
  // Professional (business / creator) accounts only; no email.
  instagram: {
    name: 'Instagram',
    endpoints: {
      authorizationUrl: 'https://www.instagram.com/oauth/authorize',
      tokenUrl: 'https://api.instagram.com/oauth/access_token',
      userinfoUrl:
        'https://graph.instagram.com/me?fields=user_id,username,name,profile_picture_url',
    },
    scopes: ['instagram_business_basic'],
    scopeSeparator: ',',
    pkce: false,
    tokenAuth: 'client_secret_post',
    identity: 'userinfo',
    profile: (u) =>
      profileOf(id(u.user_id) ?? id(u.id), {
        email: null,
        name: str(u.name),
        username: str(u.username),
        picture: str(u.profile_picture_url),
      }),
  },
  // https://docs.x.com/resources/fundamentals/authentication/oauth-2-0/authorization-code
  twitter: {
    name: 'Twitter',
    endpoints: {
      authorizationUrl: 'https://x.com/i/oauth2/authorize',
      tokenUrl: 'https://api.x.com/2/oauth2/token',
      userinfoUrl: 'https://api.x.com/2/users/me?user.fields=profile_image_url',
    },
    scopes: ['users.read', 'tweet.read', 'offline.access'],
    pkce: true,
    tokenAuth: 'client_secret_basic',
    identity: 'userinfo',
    profile: (body) => {
      const u = obj(body.data)
      return profileOf(str(u.id), {
        email: null,
        name: str(u.name),
        username: str(u.username),
        picture: str(u.profile_image_url),
      })
    },
  },
  // https://developers.tiktok.com/doc/login-kit-web
  tiktok: {
    name: 'TikTok',
    endpoints: {
      authorizationUrl: 'https://www.tiktok.com/v2/auth/authorize/',
      tokenUrl: 'https://open.tiktokapis.com/v2/oauth/token/',
      userinfoUrl:
        'https://open.tiktokapis.com/v2/user/info/?fields=open_id,avatar_url,display_name',
    },
    scopes: ['user.info.basic'],
    scopeSeparator: ',',
    pkce: false,
    tokenAuth: 'client_secret_post',
    clientIdParam: 'client_key',
    identity: 'userinfo',
    profile: (body) => {
      const u = obj(obj(body.data).user)
      return profileOf(str(u.open_id), {
        email: null,
        name: str(u.display_name),
        username: null,
        picture: str(u.avatar_url),
      })
    },
  },
  // https://developers.line.biz/en/docs/line-login/integrate-line-login/
  // The email needs a separately approved permission and is only in the id_token: not read.
  line: {
    name: 'LINE',
    endpoints: {
      authorizationUrl: 'https://access.line.me/oauth2/v2.1/authorize',
      tokenUrl: 'https://api.line.me/oauth2/v2.1/token',
      userinfoUrl: 'https://api.line.me/oauth2/v2.1/userinfo',
    },
    scopes: ['openid', 'profile'],
    pkce: true,
    tokenAuth: 'client_secret_post',
    identity: 'userinfo',
    profile: oidcClaims,
  },
}

/** Server option `oauth`: endpoint overrides per provider (tests point providers at local servers). */
export interface OAuthOptions {
  endpoints?: Partial<Record<OAuthProvider, Partial<OAuthEndpoints>>>
}

/** A provider's spec with the server's endpoint overrides applied. */
export function providerSpec(
  provider: OAuthProvider,
  options: OAuthOptions | undefined,
): OAuthProviderSpec {
  const spec = OAUTH_PROVIDER_SPECS[provider]
  const override = options?.endpoints?.[provider]
  return override ? { ...spec, endpoints: { ...spec.endpoints, ...override } } : spec
}

/**
 * The asked scopes the provider did not grant (spec 01 §8 "user denied: retry
 * and check the box"). Providers that let the user untick a permission
 * report what was granted in the token answer's `scope` (RFC 6749 §5.1;
 * GitHub documents that "users can edit the scopes you requested"); an
 * answer that reports none is taken as granting what was asked.
 */
export function missingScopes(spec: OAuthProviderSpec, granted: readonly string[]): string[] {
  if (granted.length === 0) return []
  const covered = new Set<string>()
  for (const scope of granted) {
    covered.add(scope)
    for (const alias of spec.grantedScopeAliases?.[scope] ?? []) covered.add(alias)
  }
  return spec.scopes.filter((scope) => !covered.has(scope))
}
