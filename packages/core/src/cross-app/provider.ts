import {
  CROSS_APP_MESSAGE_TYPE,
  CROSS_APP_QUERY,
  type CrossAppMessage,
  type CrossAppRpcRequest,
  crossAppRpcRequestSchema,
} from '@latchkey/protocol/client-schemas'
import { routes } from '@latchkey/protocol/routes'
import type {
  CrossAppAuthorizeResponse,
  CrossAppRequester,
  CrossAppTransactVerifyResponse,
} from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'

/*
 * The provider app's side (docs/cross-app.md): its own page, opened by a
 * requester in a popup, reads the request from its URL, asks its signed-in
 * user, and posts the answer to `window.opener` at the requester's exact
 * origin — never to "*".
 */

interface Common {
  requesterAppId: string
  state: string
  /** The requester page's origin (checked by the server against the requester app's origins). */
  origin: string
}

export type CrossAppPageRequest =
  | (Common & { kind: 'authorize'; codeChallenge: string })
  | (Common & { kind: 'transact'; token: string; request: CrossAppRpcRequest })

const fromBase64url = (text: string) =>
  new TextDecoder().decode(
    Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)),
  )

/** The cross-app request in this page's query (`?latchkey_cross_app=…`), or null. */
export function readCrossAppPageRequest(search: string): CrossAppPageRequest | null {
  const params = new URLSearchParams(search)
  const kind = params.get(CROSS_APP_QUERY)
  const requesterAppId = params.get('requester_app_id')
  const state = params.get('state')
  const origin = params.get('origin')
  if (!requesterAppId || !state || !origin) return null
  if (kind === 'authorize') {
    const codeChallenge = params.get('code_challenge')
    return codeChallenge ? { kind, requesterAppId, state, origin, codeChallenge } : null
  }
  if (kind === 'transact') {
    const token = params.get('token')
    const raw = params.get('request')
    if (!token || !raw) return null
    try {
      const request = crossAppRpcRequestSchema.parse(JSON.parse(fromBase64url(raw)))
      return { kind, requesterAppId, state, origin, token, request }
    } catch {
      return null
    }
  }
  return null
}

/** The requester asking (name and logo for the consent screen), as the server vouches for it. */
export function getCrossAppRequester(
  client: LatchkeyClient,
  request: CrossAppPageRequest,
): Promise<CrossAppRequester> {
  return client.authedRequest<CrossAppRequester>(routes.crossAppRequester, {
    requester_app_id: request.requesterAppId,
    origin: request.origin,
  })
}

/** The signed-in user accepted: a single-use code for the requester. */
export function authorizeCrossAppRequest(
  client: LatchkeyClient,
  request: Extract<CrossAppPageRequest, { kind: 'authorize' }>,
): Promise<CrossAppAuthorizeResponse> {
  return client.authedRequest<CrossAppAuthorizeResponse>(routes.crossAppAuthorize, {
    requester_app_id: request.requesterAppId,
    code_challenge: request.codeChallenge,
    origin: request.origin,
  })
}

/** Checks the requester's transact token for the signed-in user before a signature is asked. */
export function verifyCrossAppTransact(
  client: LatchkeyClient,
  request: Extract<CrossAppPageRequest, { kind: 'transact' }>,
): Promise<CrossAppTransactVerifyResponse> {
  return client.authedRequest<CrossAppTransactVerifyResponse>(routes.crossAppTransactVerify, {
    token: request.token,
    origin: request.origin,
  })
}

type Answer =
  | { result: 'code'; code: string }
  | { result: 'signed'; data: string }
  | { result: 'rejected' }
  | { result: 'error'; code: string }

/**
 * Posts the answer to the requester page that opened this one, at its exact
 * origin (the browser drops it if the opener is anywhere else).
 */
export function postCrossAppAnswer(
  request: CrossAppPageRequest,
  answer: Answer,
  opener: Pick<Window, 'postMessage'> | null = globalThis.opener as Window | null,
): void {
  if (!opener) throw new LatchkeyError('CROSS_APP_CANCELED', 'The requesting page is gone')
  const message = {
    type: CROSS_APP_MESSAGE_TYPE,
    state: request.state,
    ...answer,
  } as CrossAppMessage
  opener.postMessage(message, request.origin)
}
