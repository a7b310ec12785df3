import { randomBytes } from 'node:crypto'

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** A suffix that keeps the window names of two wallets on one page apart. */
export const randomSuffix = () => randomBytes(6).toString('hex')

/**
 * Whether the user rejects this request: `true` always, a number N the next N
 * times (counting down in `behaviour`), anything else never.
 */
export function consume<K extends string>(
  behaviour: Partial<Record<K, boolean | number | undefined>>,
  key: K,
): boolean {
  const value = behaviour[key]
  if (value === true) return true
  if (typeof value === 'number' && value > 0) {
    behaviour[key] = value - 1
    return true
  }
  return false
}

/**
 * The source of `script(arg)` for `addInitScript` / `evaluate`. Passed as
 * text, with a stand-in for the `__name` helper that esbuild's `keepNames`
 * (tsx, for one) inserts into compiled functions and the page does not have.
 */
export function pageScriptSource<A>(script: (arg: A) => void, arg: A): string {
  return `(() => { const __name = (target) => target; (${script.toString()})(${JSON.stringify(arg)}) })()`
}

/** Runs the script in the documents `page` shows now, ignoring frames that are navigating away. */
export async function runInCurrentDocuments(
  frames: Array<{ evaluate(source: string): Promise<unknown> }>,
  source: string,
): Promise<void> {
  await Promise.all(
    frames.map((frame) =>
      frame.evaluate(source).catch((error: unknown) => {
        if (/context was destroyed|detached|closed/i.test(String(error))) return
        throw error
      }),
    ),
  )
}
