import { routes } from '@latchkey/protocol/routes'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import type { KeyValueStorage } from '../storage.ts'
import type { User } from '../user.ts'
import { loginRequest } from './login-request.ts'

/** Where the guest credential is kept (spec 01 §3 "Stored locally"); `{appId}` substituted. */
export const GUEST_CREDENTIAL_KEY = 'latchkey:guest_credential:{appId}'

const keyOf = (appId: string) => GUEST_CREDENTIAL_KEY.replace('{appId}', appId)

function base64Url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** This browser's guest credential for the app: 32 CSPRNG bytes, made on first use. */
export function getOrCreateGuestCredential(storage: KeyValueStorage, appId: string): string {
  const stored = storage.get(keyOf(appId))
  if (stored && /^[A-Za-z0-9_-]{43}$/.test(stored)) return stored
  const credential = base64Url(globalThis.crypto.getRandomValues(new Uint8Array(32)))
  storage.set(keyOf(appId), credential)
  return credential
}

/** Forgets the guest credential (the next guest login is a new guest). */
export function clearGuestCredential(storage: KeyValueStorage, appId: string): void {
  storage.remove(keyOf(appId))
}

export interface LoginAsGuestReturnType {
  user: User
  isNewUser: boolean
}

/**
 * Logs in as this browser's guest: the same stored credential always reaches
 * the same guest user (until that guest links a login method). Refused with
 * ALREADY_LOGGED_IN while a non-guest user is logged in: the guest flow never
 * links (spec 01 §6).
 *
 * @example
 * const { user } = await loginAsGuest(client) // user.isGuest === true
 */
export async function loginAsGuest(client: LatchkeyClient): Promise<LoginAsGuestReturnType> {
  const { status, user } = client.session.getState()
  if (status === 'authenticated' && user && !user.isGuest)
    throw new LatchkeyError('ALREADY_LOGGED_IN')
  const credential = getOrCreateGuestCredential(client.storage, client.appId)
  const response = await loginRequest(client, routes.guestAuthenticate, {
    guest_credential: credential,
  })
  return { user: client.session.applyAuthResponse(response), isNewUser: response.is_new_user }
}
