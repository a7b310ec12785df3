/*
 * Passkey login, sign-up and linking, server side (docs/passkeys.md, spec 01
 * §4 "Passkey", §7; security bar 23–26). The relying party is the host of
 * the page the user is on (the request's Origin, one of the app's origins);
 * every ceremony answers a stored single-use challenge. Passkeys are
 * `passkey` linked accounts keyed by credential id; the public key and the
 * signCount live in the account's data.
 *
 * One file per ceremony: register.ts (sign-up), authenticate.ts (login),
 * link.ts (add and remove a passkey of the signed-in user); ceremony.ts holds
 * what they share.
 */

export { authenticateWithPasskey, initPasskeyAuthenticate } from './authenticate.ts'
export type { PasskeyCaller, PasskeyData } from './ceremony.ts'
export { initPasskeyLink, linkPasskey, unlinkPasskey } from './link.ts'
export { initPasskeyRegister, registerWithPasskey } from './register.ts'
