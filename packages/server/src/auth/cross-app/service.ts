import type {
  CrossAppAuthenticateResponse,
  CrossAppConnectionsResponse,
  CrossAppDetails,
  CrossAppRequester,
  CrossAppSettings,
  CrossAppTransactGrant,
  CrossAppTransactVerifyResponse,
  UserWire,
} from '@latchkey/protocol'
import type { AppRecord } from '../../apps/service.ts'
import { isUniqueViolation } from '../../db/connect.ts'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { startSession, startSessionForNewUser } from '../../sessions/service.ts'
import { SMART_WALLET_ACCOUNT_TYPE } from '../../users/accounts-wire.ts'
import {
  type AccountInput,
  findAccount,
  getUserWire,
  insertAccount,
  linkedAccountsOf,
  WALLET_ACCOUNT_TYPE,
} from '../../users/service.ts'
import {
  consumeCrossAppCode,
  findCrossAppToken,
  issueCrossAppCode,
  issueCrossAppToken,
} from './grants.ts'
import { CROSS_APP_ACCOUNT_TYPE } from './schema.ts'

/*
 * Cross-app login and transact (spec 03 §4, §7; docs/cross-app.md). P is the
 * provider app (its users' accounts and wallets), R the requester app.
 */

interface Provider {
  app: AppRecord
  settings: CrossAppSettings
}

const invalidApp = () => new ApiError('CROSS_APP_INVALID_APP')

/** A provider app with cross-app sharing on, else 'Invalid connected app'. */
async function providerOf(services: Services, providerAppId: string): Promise<Provider> {
  const app = await services.apps.get(providerAppId)
  const settings = app?.settings.cross_app
  if (!app || !settings?.enabled) throw invalidApp()
  return { app, settings }
}

/** The provider shares with this requester (every app when no list is set, never itself). */
function assertAllows(provider: Provider, requesterAppId: string): void {
  const list = provider.settings.allowed_requester_app_ids
  if (requesterAppId === provider.app.id || (list && !list.includes(requesterAppId)))
    throw invalidApp()
}

/**
 * The requester of a provider page's request: an app on this server that the
 * provider allows, and an origin that app allows. The code (or a signature)
 * goes to that origin only.
 */
async function requesterOf(
  services: Services,
  provider: Provider,
  requesterAppId: string,
  origin: string,
): Promise<AppRecord> {
  assertAllows(provider, requesterAppId)
  const requester = await services.apps.get(requesterAppId)
  if (!requester) throw invalidApp()
  if (!requester.allowedOrigins.includes(origin))
    throw new ApiError('ORIGIN_NOT_ALLOWED', 'The origin is not one of the requester app’s origins')
  return requester
}

const appSummary = (app: AppRecord) => ({
  id: app.id,
  name: app.name,
  logo_url: app.settings.logo_url ?? null,
})

/** GET /apps/:provider_app_id/cross-app/details: what a requester's landing screen shows. */
export async function crossAppDetails(
  services: Services,
  providerAppId: string,
): Promise<CrossAppDetails> {
  const { app, settings } = await providerOf(services, providerAppId)
  return {
    ...appSummary(app),
    custom_api_url: settings.custom_api_url,
    read_only: settings.read_only === true,
  }
}

/** The provider page's consent screen: who is asking (checked as authorize checks it). */
export async function crossAppRequester(
  services: Services,
  providerApp: AppRecord,
  input: { requester_app_id: string; origin: string },
): Promise<CrossAppRequester> {
  const provider = await providerOf(services, providerApp.id)
  return appSummary(await requesterOf(services, provider, input.requester_app_id, input.origin))
}

/** The provider's signed-in user accepts: a single-use code for the requester (2 minutes). */
export async function authorizeCrossApp(
  services: Services,
  providerApp: AppRecord,
  providerUserId: string,
  input: { requester_app_id: string; code_challenge: string; origin: string },
) {
  const provider = await providerOf(services, providerApp.id)
  const requester = await requesterOf(services, provider, input.requester_app_id, input.origin)
  const { code, expiresAt } = await issueCrossAppCode(services, {
    providerAppId: provider.app.id,
    requesterAppId: requester.id,
    providerUserId,
    origin: input.origin,
    codeChallenge: input.code_challenge,
  })
  return { code, expires_at: expiresAt, requester_app: appSummary(requester) }
}

/** The provider user's embedded wallets and smart wallet, as the cross_app account carries them. */
async function walletsOf(services: Services, providerUserId: string) {
  const rows = await linkedAccountsOf(services.db, providerUserId)
  const dataOf = (type: string) =>
    rows
      .filter((r) => r.type === type)
      .map((r) => JSON.parse(r.data) as { address?: string; chain_type?: string })
  return {
    embedded_wallets: dataOf(WALLET_ACCOUNT_TYPE)
      .filter(
        (d): d is { address: string; chain_type: 'ethereum' | 'solana' } =>
          typeof d.address === 'string' &&
          (d.chain_type === 'ethereum' || d.chain_type === 'solana'),
      )
      .map((d) => ({ address: d.address, chain_type: d.chain_type })),
    // Spec 01 §3 "Cross-app account: smartWallets" (smart-wallets/link.ts; at most one).
    smart_wallets: dataOf(SMART_WALLET_ACCOUNT_TYPE)
      .filter((d): d is { address: string } => typeof d.address === 'string')
      .map((d) => ({ address: d.address })),
  }
}

interface Trade {
  provider: Provider
  providerUserId: string
  account: AccountInput
}

/** Checks and spends the code, then reads the provider user's account as R will store it. */
async function trade(
  services: Services,
  requesterApp: AppRecord,
  input: { provider_app_id: string; code: string; code_verifier: string },
  origin: string | undefined,
): Promise<Trade> {
  const provider = await providerOf(services, input.provider_app_id)
  assertAllows(provider, requesterApp.id)
  const { providerUserId } = await consumeCrossAppCode(services, {
    providerAppId: provider.app.id,
    requesterAppId: requesterApp.id,
    code: input.code,
    codeVerifier: input.code_verifier,
    origin,
    providerAppName: provider.app.name,
  })
  const account: AccountInput = {
    type: CROSS_APP_ACCOUNT_TYPE,
    identifier: providerUserId,
    data: {
      provider_app_id: provider.app.id,
      ...(await walletsOf(services, providerUserId)),
    },
  }
  return { provider, providerUserId, account }
}

async function grantFor(
  services: Services,
  requesterApp: AppRecord,
  t: Trade,
  requesterUserId: string,
): Promise<CrossAppTransactGrant> {
  const readOnly = t.provider.settings.read_only === true
  const { token, expiresAt } = await issueCrossAppToken(services, {
    providerAppId: t.provider.app.id,
    requesterAppId: requesterApp.id,
    providerUserId: t.providerUserId,
    requesterUserId,
    readOnly,
  })
  return { provider_app_id: t.provider.app.id, token, read_only: readOnly, expires_at: expiresAt }
}

/** The requester trades the code: logs in or signs up R's user with the cross_app account. */
export async function authenticateWithCrossApp(
  services: Services,
  requesterApp: AppRecord,
  input: {
    provider_app_id: string
    code: string
    code_verifier: string
    mode: 'login-or-sign-up' | 'no-signup'
  },
  origin: string | undefined,
): Promise<CrossAppAuthenticateResponse> {
  const t = await trade(services, requesterApp, input, origin)
  const now = services.now()
  const login = async (): Promise<CrossAppAuthenticateResponse | undefined> => {
    const existing = await findAccount(
      services.db,
      requesterApp.id,
      CROSS_APP_ACCOUNT_TYPE,
      t.account.identifier,
    )
    if (!existing) return undefined
    // The provider user's wallets may have changed since: keep the latest.
    await services.db
      .updateTable('linked_accounts')
      .set({ data: JSON.stringify(t.account.data), latest_verified_at: now })
      .where('id', '=', existing.id)
      .execute()
    const auth = await startSession(services, requesterApp.id, existing.user_id, false)
    return { ...auth, cross_app: await grantFor(services, requesterApp, t, existing.user_id) }
  }
  const loggedIn = await login()
  if (loggedIn) return loggedIn
  if (input.mode === 'no-signup') throw new ApiError('USER_DOES_NOT_EXIST')
  try {
    const auth = await startSessionForNewUser(services, requesterApp.id, t.account, now)
    return { ...auth, cross_app: await grantFor(services, requesterApp, t, auth.user.id) }
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    const winner = await login()
    if (!winner) throw error
    return winner
  }
}

/** Links the provider account to R's signed-in user (one per provider app). */
export async function linkCrossApp(
  services: Services,
  requesterApp: AppRecord,
  userId: string,
  input: { provider_app_id: string; code: string; code_verifier: string },
  origin: string | undefined,
): Promise<{ user: UserWire; cross_app: CrossAppTransactGrant }> {
  const t = await trade(services, requesterApp, input, origin)
  const owner = await findAccount(
    services.db,
    requesterApp.id,
    CROSS_APP_ACCOUNT_TYPE,
    t.account.identifier,
  )
  if (owner && owner.user_id !== userId) throw new ApiError('ACCOUNT_ALREADY_LINKED')
  if (!owner) {
    const accounts = await linkedAccountsOf(services.db, userId)
    const sameProvider = accounts.some(
      (a) =>
        a.type === CROSS_APP_ACCOUNT_TYPE &&
        (JSON.parse(a.data) as { provider_app_id?: string }).provider_app_id === t.provider.app.id,
    )
    if (sameProvider)
      throw new ApiError(
        'CANNOT_LINK_MORE_OF_TYPE',
        `Only one ${t.provider.app.name} account can be linked to an account.`,
      )
    try {
      await insertAccount(services.db, requesterApp.id, userId, t.account, services.now())
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('ACCOUNT_ALREADY_LINKED')
      throw error
    }
  }
  const grant = await grantFor(services, requesterApp, t, userId)
  return { user: await getUserWire(services.db, userId), cross_app: grant }
}

/**
 * The provider page checks a requester's transact token before it shows a
 * signature request: the token must be live and this provider user's, the
 * provider must not be read-only, and the result goes to an origin of the
 * token's requester app.
 */
export async function verifyCrossAppTransact(
  services: Services,
  providerApp: AppRecord,
  providerUserId: string,
  input: { token: string; origin: string },
): Promise<CrossAppTransactVerifyResponse> {
  const provider = await providerOf(services, providerApp.id)
  const row = await findCrossAppToken(services, provider.app.id, providerUserId, input.token)
  if (row.read_only === 1 || provider.settings.read_only === true)
    throw new ApiError('CROSS_APP_READ_ONLY')
  const requester = await requesterOf(services, provider, row.requester_app_id, input.origin)
  const wallets = (await walletsOf(services, providerUserId)).embedded_wallets
  return {
    requester_app: appSummary(requester),
    addresses: wallets.filter((w) => w.chain_type === 'ethereum').map((w) => w.address),
  }
}

/** The signed-in requester user's connections (spec 03 §3 "Cross-app connection"). */
export async function crossAppConnections(
  services: Services,
  requesterApp: AppRecord,
  userId: string,
): Promise<CrossAppConnectionsResponse> {
  const accounts = await linkedAccountsOf(services.db, userId)
  const ids = [
    ...new Set(
      accounts
        .filter((a) => a.type === CROSS_APP_ACCOUNT_TYPE && a.app_id === requesterApp.id)
        .map((a) => (JSON.parse(a.data) as { provider_app_id?: string }).provider_app_id)
        .filter((id): id is string => typeof id === 'string'),
    ),
  ]
  const connections = []
  for (const id of ids) {
    const app = await services.apps.get(id)
    const settings = app?.settings.cross_app
    if (!app || !settings?.enabled) continue
    connections.push({
      provider_app_id: app.id,
      provider_app_name: app.name,
      provider_app_icon_url: app.settings.logo_url ?? null,
      provider_app_custom_api_url: settings.custom_api_url,
      read_only: settings.read_only === true,
    })
  }
  return { connections }
}
