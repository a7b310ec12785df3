/** Where a server without a public URL can be reached from its own machine. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]']

/**
 * The origins of this server's own pages (the enclave, the dev mailbox), which
 * an app's requests may come from besides the app's allowed origins. They are
 * taken from configuration only, never from the request: its `Host` and
 * `X-Forwarded-Host` are whatever the client wrote, and a DNS-rebound page on
 * `http://evil.test` sends `Host: evil.test` with `Origin: http://evil.test`.
 *
 * With a public URL: its origin, nothing else. Without one (development): the
 * loopback names on the listening port, which no other site can claim.
 *
 * @example
 * resolveOwnOrigins('https://auth.example.com/', 8787) // ['https://auth.example.com']
 * resolveOwnOrigins(undefined, 8787) // ['http://localhost:8787', 'http://127.0.0.1:8787', 'http://[::1]:8787']
 */
export function resolveOwnOrigins(publicUrl: string | undefined, port: number): string[] {
  if (!publicUrl) return LOOPBACK_HOSTS.map((host) => `http://${host}:${port}`)
  let url: URL
  try {
    url = new URL(publicUrl)
  } catch {
    throw new Error(`publicUrl is not a URL: ${publicUrl}`)
  }
  // Anything else has the opaque origin "null", which sandboxed frames and data: URLs send.
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error('publicUrl must be an http(s) URL')
  return [url.origin]
}
