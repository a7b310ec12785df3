import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** A log line that looks like it carries a secret. */
export interface LogLeak {
  /** The file (when scanning a folder) and 1-based line number. */
  file?: string
  line: number
  /** Which shape or known value matched. */
  kind: 'jwt' | 'refresh-token-or-share' | 'totp-secret' | 'code' | 'secret'
  text: string
}

export interface KnownSecrets {
  /** One-time codes delivered during the run (dev mailbox, dev outbox): matched as whole words. */
  codes?: Iterable<string>
  /** Any other value that must never be logged, matched as a substring. */
  secrets?: Iterable<string>
}

/**
 * Secret shapes. JWS compact serialisation (access and identity tokens);
 * 43+ base64url characters in a row: our refresh tokens (32 random bytes,
 * ids.ts `newSecret`) and wallet shares, longer than anything we log on
 * purpose (a UUID request id is 36); a base32 run as long as a TOTP secret.
 */
const SHAPES: Array<[LogLeak['kind'], RegExp]> = [
  ['jwt', /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/],
  ['refresh-token-or-share', /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43,}(?![A-Za-z0-9_-])/],
  ['totp-secret', /(?<![A-Za-z0-9])[A-Z2-7]{26,}(?![A-Za-z0-9])/],
]

/**
 * The dev mailbox and outbox print each code they deliver, by design and
 * only in development (adapters/email/dev-mailbox.ts): those lines are not
 * checked for codes. Every other shape still applies to them.
 */
const DEV_DELIVERY = /"msg":"\[dev (mailbox|outbox)\]/

/**
 * Fields whose digits would pass for a code: the process id, the timestamp
 * and the request id (a UUID's hex holds six-digit runs: a CI run once found
 * a delivered code inside `1f302915-…`).
 */
const NOISE = /"(pid|time|request_id)":("[^"]*"|\d+),?/g

/** What one line gives away, if anything: a shape first, then a known value. */
function leakIn(
  line: string,
  codePattern: RegExp | null,
  secrets: string[],
): LogLeak['kind'] | null {
  for (const [kind, shape] of SHAPES) if (shape.test(line)) return kind
  if (secrets.some((secret) => line.includes(secret))) return 'secret'
  if (codePattern && !DEV_DELIVERY.test(line) && codePattern.test(line.replace(NOISE, '')))
    return 'code'
  return null
}

/**
 * The lines of a JSON log (one object per line) that carry a secret: a
 * known code or value, or a token, refresh token, share or TOTP secret by
 * its shape. The e2e run checks its servers' logs with it (e2e/log-check.ts).
 *
 * @example
 * const leaks = findSecretsInLog(text, { codes: ['123456'] })
 * if (leaks.length) throw new Error(`secret in the log: ${leaks[0].text}`)
 */
export function findSecretsInLog(text: string, known: KnownSecrets = {}): LogLeak[] {
  const codes = [...(known.codes ?? [])].filter((code) => /^\d+$/.test(code))
  const codePattern = codes.length
    ? new RegExp(`(?<![0-9A-Za-z])(${codes.join('|')})(?![0-9A-Za-z])`)
    : null
  const secrets = [...(known.secrets ?? [])].filter(Boolean)
  const leaks: LogLeak[] = []
  for (const [index, line] of text.split('\n').entries()) {
    const kind = leakIn(line, codePattern, secrets)
    if (kind) leaks.push({ line: index + 1, kind, text: line })
  }
  return leaks
}

/** {@link findSecretsInLog} over every `*.jsonl` file of `dir`. */
export function findSecretsInLogDir(dir: string, known: KnownSecrets = {}): LogLeak[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) =>
      findSecretsInLog(readFileSync(join(dir, name), 'utf8'), known).map((leak) => ({
        ...leak,
        file: name,
      })),
    )
}
