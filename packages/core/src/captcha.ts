import type { ErrorCode } from '@latchkey/protocol/errors'
import { LatchkeyError } from './errors.ts'

/*
 * The captcha's state machine (spec 01 §4 "Captcha", §9; docs/captcha.md),
 * with no DOM and no provider: a solver (ALTCHA, Turnstile) is plugged in.
 * `token()` is what the client's captcha token provider calls before every
 * login start; each token is handed out once.
 */

/** Spec 01 §4: disabled, ready, executing/loading, success (token present), error. */
export type CaptchaStatus = 'disabled' | 'ready' | 'loading' | 'success' | 'error'

export interface CaptchaState {
  status: CaptchaStatus
  /** Set in 'error': the catalogue code to show. */
  error: ErrorCode | null
  /** Every retry failed: the screen advises disabling an ad blocker or VPN. */
  exhausted: boolean
  /** A login start is waiting for a token (the visible captcha screen shows). */
  waiting: boolean
}

/** One captcha provider in the browser: produces a fresh token per call. */
export interface CaptchaSolver {
  /** Solves (or executes) the captcha once; rejects with a LatchkeyError on failure. */
  solve(signal: AbortSignal): Promise<string>
  /** Removes the widget from the page. */
  dispose?(): void
}

/** Spec 01 §9: auto-execute 500 ms after a screen that needs it shows. */
export const CAPTCHA_AUTO_EXECUTE_DELAY_MS = 500
/** Spec 01 §9: the result wait polls every 200 ms… */
export const CAPTCHA_POLL_INTERVAL_MS = 200
/** …for at most 20 s, then CAPTCHA_TIMEOUT. */
export const CAPTCHA_WAIT_LIMIT_MS = 20_000
/** Spec 01 §9: 3 retries, the first after 1 s (then 2 s, 4 s). */
export const CAPTCHA_RETRIES = 3
export const CAPTCHA_RETRY_INITIAL_DELAY_MS = 1_000

/** Solver failures no retry can fix. */
const FINAL_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['CAPTCHA_INVALID_SITE_KEY'])

export interface CaptchaController {
  getState(): CaptchaState
  subscribe(listener: () => void): () => void
  /** Starts solving now (no-op while loading or holding a token). */
  execute(): void
  /** Starts solving after `delayMs` (default 500 ms) unless something starts it first. */
  scheduleExecute(delayMs?: number): void
  /**
   * A fresh token for one login start, waiting (polling every 200 ms, 20 s
   * at most) while the captcha solves; rejects with CAPTCHA_TIMEOUT or the
   * solver's error once retries are exhausted.
   */
  token(): Promise<string | undefined>
  /** Forgets the token and any work in progress (modal closed, token expired). */
  reset(): void
  /** The solver says the current token or challenge expired: reset and, if asked to, solve again. */
  expire(): void
  /** Solve again at once after a token is taken or expires (the modal is open). */
  setPrefetch(prefetch: boolean): void
  dispose(): void
}

/**
 * The captcha controller over a lazily loaded solver; `null` for an app
 * without captcha (status 'disabled', `token()` gives undefined).
 *
 * @example
 * const captcha = createCaptchaController(() => import('./altcha.ts').then((m) => m.createAltchaSolver(opts)))
 * client.setCaptchaTokenProvider(() => captcha.token())
 */
export function createCaptchaController(
  loadSolver: (() => Promise<CaptchaSolver>) | null,
): CaptchaController {
  let state: CaptchaState = {
    status: loadSolver ? 'ready' : 'disabled',
    error: null,
    exhausted: false,
    waiting: false,
  }
  const listeners = new Set<() => void>()
  let token: string | null = null
  let run: AbortController | null = null
  let scheduled: ReturnType<typeof setTimeout> | null = null
  let solver: Promise<CaptchaSolver> | null = null
  let waiters = 0
  let prefetch = false

  const set = (patch: Partial<CaptchaState>) => {
    state = { ...state, ...patch }
    for (const listener of listeners) listener()
  }
  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      const id = setTimeout(resolve, ms)
      signal.addEventListener('abort', () => {
        clearTimeout(id)
        resolve()
      })
    })
  const clearScheduled = () => {
    if (scheduled) clearTimeout(scheduled)
    scheduled = null
  }

  async function solveWithRetries(signal: AbortSignal) {
    let lastError: ErrorCode = 'CAPTCHA_FAILED'
    for (let attempt = 0; attempt <= CAPTCHA_RETRIES; attempt++) {
      if (attempt > 0) await sleep(CAPTCHA_RETRY_INITIAL_DELAY_MS * 2 ** (attempt - 1), signal)
      if (signal.aborted) return
      try {
        solver ??= (loadSolver as () => Promise<CaptchaSolver>)()
        const value = await (await solver).solve(signal)
        if (signal.aborted) return
        token = value
        set({ status: 'success', error: null, exhausted: false })
        return
      } catch (error) {
        if (signal.aborted) return
        // A solver that failed to load is loaded again on the next attempt.
        if (!(error instanceof LatchkeyError)) solver = null
        lastError = error instanceof LatchkeyError ? error.code : 'CAPTCHA_FAILED'
        if (FINAL_ERRORS.has(lastError)) break
      }
    }
    set({ status: 'error', error: lastError, exhausted: true })
  }

  const controller: CaptchaController = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    execute() {
      clearScheduled()
      if (!loadSolver || state.status === 'loading' || state.status === 'success') return
      run = new AbortController()
      set({ status: 'loading', error: null, exhausted: false })
      void solveWithRetries(run.signal)
    },
    scheduleExecute(delayMs = CAPTCHA_AUTO_EXECUTE_DELAY_MS) {
      if (!loadSolver || scheduled || state.status !== 'ready') return
      scheduled = setTimeout(() => {
        scheduled = null
        controller.execute()
      }, delayMs)
    },
    async token() {
      if (!loadSolver) return undefined
      const take = () => {
        const value = token as string
        token = null
        set({ status: 'ready' })
        if (prefetch) controller.execute()
        return value
      }
      if (state.status === 'success' && token) return take()
      if (state.status === 'error') set({ status: 'ready' })
      controller.execute()
      waiters++
      set({ waiting: true })
      try {
        const started = Date.now()
        for (;;) {
          await new Promise((resolve) => setTimeout(resolve, CAPTCHA_POLL_INTERVAL_MS))
          if (state.status === 'success' && token) return take()
          if (state.status === 'error') throw new LatchkeyError(state.error ?? 'CAPTCHA_FAILED')
          // Reset while waiting (the token expired): solve again.
          if (state.status === 'ready') controller.execute()
          if (Date.now() - started >= CAPTCHA_WAIT_LIMIT_MS)
            throw new LatchkeyError('CAPTCHA_TIMEOUT')
        }
      } finally {
        waiters--
        if (waiters === 0) set({ waiting: false })
      }
    },
    reset() {
      clearScheduled()
      run?.abort()
      run = null
      token = null
      if (loadSolver) set({ status: 'ready', error: null, exhausted: false })
    },
    expire() {
      controller.reset()
      if (prefetch || waiters > 0) controller.execute()
    },
    setPrefetch(value) {
      prefetch = value
    },
    dispose() {
      controller.reset()
      void solver?.then((s) => s.dispose?.()).catch(() => {})
      solver = null
    },
  }
  return controller
}
