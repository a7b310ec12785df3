import type { TestInstance } from '../test/instance.ts'
import { METRICS_PATH } from './http.ts'

/** A token long enough for resolveMetricsAccess. */
export const METRICS_TOKEN = 'test-metrics-token-0123456789abcdef'

/** `GET /metrics` with the test token; throws unless it answers 200. */
export async function scrape(t: TestInstance, token = METRICS_TOKEN): Promise<string> {
  const res = await t.server.app.request(METRICS_PATH, {
    headers: { authorization: `Bearer ${token}` },
  })
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`)
  return res.text()
}

/**
 * The value of the sample `name` whose labels are exactly `labels`, from
 * Prometheus' text format; undefined when there is no such sample.
 */
export function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const want = JSON.stringify(Object.entries(labels).sort())
  for (const line of text.split('\n')) {
    const match = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/)
    if (!match || match[1] !== name) continue
    const got: Array<[string, string]> = []
    for (const label of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      got.push([label[1] ?? '', label[2] ?? ''])
    if (JSON.stringify(got.sort()) === want) return Number(match[3])
  }
  return undefined
}

/** Every distinct value of `label` among the samples of `name`. */
export function labelValues(text: string, name: string, label: string): string[] {
  const values = new Set<string>()
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue
    const value = line.match(new RegExp(`[{,]${label}="((?:[^"\\\\]|\\\\.)*)"`))?.[1]
    if (value !== undefined) values.add(value)
  }
  return [...values].sort()
}
