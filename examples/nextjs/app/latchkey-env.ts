/**
 * Where the app finds its Latchkey server, read on the server at request
 * time (not inlined at build time as NEXT_PUBLIC_ variables are), so one
 * build runs against any server.
 */
export function latchkeyEnv() {
  const appId = process.env.LATCHKEY_APP_ID
  const apiUrl = process.env.LATCHKEY_API_URL
  if (!appId || !apiUrl) throw new Error('Set LATCHKEY_APP_ID and LATCHKEY_API_URL')
  return {
    appId,
    apiUrl,
    // The server's public URL, which signs its tokens as `iss`; the API URL unless told.
    issuer: process.env.LATCHKEY_ISSUER ?? apiUrl,
  }
}
