import { isIPv4, isIPv6 } from 'node:net'
import type { RateLimitRule } from '../config.ts'
import { limited } from '../errors.ts'
import type { Services } from '../http/context.ts'

/**
 * The rate-limit bucket of a client IP: an IPv4 address as is (also when
 * IPv4-mapped, `::ffff:203.0.113.9`), an IPv6 address by its /64 — one host
 * usually holds a whole /64, so counting single addresses would give it 2^64
 * fresh budgets. Anything else (unknown, unparsable) is its own bucket.
 *
 * @example
 * ipBucket('2001:db8:1:2:aaaa::1') // '2001:db8:1:2::/64'
 */
export function ipBucket(ip: string | undefined): string {
  if (!ip) return 'unknown'
  const address = ip.replace(/%.*$/, '')
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
  if (mapped && isIPv4(mapped)) return mapped
  if (!isIPv6(address)) return address
  // A trailing dotted quad (`64:ff9b::192.0.2.1`) is the last two groups.
  const hex = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [a * 256 + Number(b), c * 256 + Number(d)].map((n) => n.toString(16)).join(':'),
  )
  const [head = '', tail] = hex.split('::')
  const groups = (part: string) => (part ? part.split(':') : [])
  const front = groups(head)
  const back = tail === undefined ? [] : groups(tail)
  const missing = 8 - front.length - back.length
  const full = [...front, ...Array.from({ length: Math.max(0, missing) }, () => '0'), ...back]
  const prefix = full.slice(0, 4).map((g) => Number.parseInt(g, 16).toString(16))
  return `${prefix.join(':')}::/64`
}

/**
 * Counts one request of `purpose` from `ip` against `rule` and refuses past
 * it with 429 TOO_MANY_REQUESTS (with `retry_after`: when the window ends). The count is shared by every app on the
 * server (and every node, with Redis): one IP has one budget per purpose.
 *
 * @example
 * await limitPerIp(services, 'wallet-key', services.config.rateLimits.walletKeyRequestsPerIp, ip)
 */
export async function limitPerIp(
  services: Services,
  purpose: string,
  rule: RateLimitRule,
  ip: string | undefined,
): Promise<void> {
  const result = await services.limiter.hit(
    `${purpose}-ip:${ipBucket(ip)}`,
    rule.limit,
    rule.windowMs,
  )
  if (!result.allowed) throw limited('TOO_MANY_REQUESTS', result.resetAt, services.now())
}
