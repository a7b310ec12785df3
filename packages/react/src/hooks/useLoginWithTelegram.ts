import {
  createTelegramFlow,
  LatchkeyError,
  readMiniAppInitData,
  type TelegramFlow,
  type TelegramFlowState,
  type TelegramProof,
  takeTelegramReturn,
  telegramLoginUrl,
} from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import type { LoginResult } from '../store.ts'

export interface UseLoginWithTelegramParameters {
  onComplete?(result: LoginResult): void
  onError?(code: ErrorCode): void
  /** Log in existing users only (mode `no-signup`). */
  disableSignup?: boolean
}

export interface UseLoginWithTelegramReturnType {
  /** initial → verifying → success | failure (spec 01 §4 "Telegram"). */
  state: TelegramFlowState
  /**
   * Sends Telegram's signed payload to the server. Without an argument it
   * uses, in order: the return parameters in the address bar (removed from
   * it), then the Mini App's initData. Resolves with false when there was
   * nothing to send; failures land in `state` and `onError`.
   */
  login(proof?: TelegramProof): Promise<boolean>
  /** Sends the browser to Telegram's login page; it comes back to `returnTo` (default: this page). */
  redirectToTelegram(options?: { returnTo?: string }): Promise<void>
  /** Sends the last payload again (after a network failure). */
  retry(): Promise<void>
}

/**
 * Telegram login for apps that draw their own UI: core's Telegram flow,
 * wired to React state. Pair it with `<TelegramStatusScreen state={state} />`
 * or your own statuses.
 *
 * @example
 * const { state, login, redirectToTelegram } = useLoginWithTelegram({ onComplete: ({ user }) => … })
 * useEffect(() => { void login() }, [login]) // the return from Telegram, or a Mini App
 * <button onClick={() => redirectToTelegram()}>Log in with Telegram</button>
 */
export function useLoginWithTelegram(
  parameters: UseLoginWithTelegramParameters = {},
): UseLoginWithTelegramReturnType {
  const instance = useLatchkeyInstance()
  const { client } = instance
  const disableSignup = parameters.disableSignup === true
  const callbacks = useRef(parameters)
  useEffect(() => {
    callbacks.current = parameters
  })
  const flow: TelegramFlow = useMemo(
    () => createTelegramFlow(client, { intent: { type: 'login', disableSignup } }),
    [client, disableSignup],
  )
  const state = useSyncExternalStore(flow.subscribe, flow.getState, flow.getState)

  const report = useCallback(() => {
    const next = flow.getState()
    if (next.status === 'failure') callbacks.current.onError?.(next.error.code)
    if (next.status === 'success')
      callbacks.current.onComplete?.({
        user: next.user,
        isNewUser: next.isNewUser,
        wasAlreadyAuthenticated: false,
        loginMethod: 'telegram',
      })
  }, [flow])

  const login = useCallback(
    async (proof?: TelegramProof) => {
      const found = proof ?? takeTelegramReturn() ?? miniAppProof()
      if (!found) return false
      await flow.submit(found)
      report()
      return true
    },
    [flow, report],
  )

  const redirectToTelegram = useCallback(
    async ({ returnTo }: { returnTo?: string } = {}) => {
      const config = (await client.getAppConfig()).telegram_auth_config
      if (!config) {
        callbacks.current.onError?.('TELEGRAM_NOT_ALLOWED')
        throw new LatchkeyError('TELEGRAM_NOT_ALLOWED')
      }
      globalThis.location.assign(
        telegramLoginUrl({
          botId: config.bot_id,
          origin: globalThis.location.origin,
          returnTo: returnTo ?? globalThis.location.href,
        }),
      )
    },
    [client],
  )

  const retry = useCallback(async () => {
    await flow.retry()
    report()
  }, [flow, report])

  return { state, login, redirectToTelegram, retry }
}

function miniAppProof(): TelegramProof | null {
  const initData = readMiniAppInitData()
  return initData ? { telegramWebAppData: initData } : null
}
