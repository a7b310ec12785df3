import {
  createTelegramFlow,
  type LatchkeyClient,
  LatchkeyError,
  readMiniAppInitData,
  redirectToTelegram,
  type TelegramProof,
  type User,
} from '@latchkey/core'
import type { AppConfig } from '@latchkey/protocol/schemas'
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react'
import { TelegramStatusScreen } from './TelegramStatusScreen.tsx'

export interface TelegramLoginProps {
  client: LatchkeyClient
  /** The app's Telegram set-up (bot id, seamless auth); null when the app has none. */
  telegram: AppConfig['telegram_auth_config']
  /** Telegram's signed result to verify; null starts the login. */
  proof: TelegramProof | null
  intent: 'login' | 'link'
  disableSignup: boolean
  onDone(result: { user: User; isNewUser: boolean }): void
  /** A failure the flow may route (spec 02 §8), with the Telegram account tried when known. */
  onError(error: LatchkeyError, account?: { telegram_user_id: string }): void
  onBack(): void
}

/** The Telegram user id of a proof: the widget's `id`, or the Mini App's `user` JSON. */
export function telegramUserId(proof: TelegramProof): string | undefined {
  if (proof.telegramAuthResult) return String(proof.telegramAuthResult.id)
  try {
    const user = new URLSearchParams(proof.telegramWebAppData).get('user')
    const id = user ? (JSON.parse(user) as { id?: unknown }).id : undefined
    return typeof id === 'number' || typeof id === 'string' ? String(id) : undefined
  } catch {
    return undefined
  }
}

/**
 * Telegram login inside the modal (spec 01 §4 "Telegram"): verifies a
 * returned widget result; otherwise, inside a Telegram Mini App with seamless
 * auth on, sends the Mini App's initData at once, else leaves for Telegram's
 * login page (which returns to this page for the modal to finish). Shows the
 * three statuses; a retryable failure starts over.
 */
export function TelegramLogin({
  client,
  telegram,
  proof,
  intent,
  disableSignup,
  onDone,
  onError,
  onBack,
}: TelegramLoginProps) {
  const flow = useMemo(
    () =>
      createTelegramFlow(client, {
        intent: intent === 'link' ? { type: 'link' } : { type: 'login', disableSignup },
      }),
    [client, intent, disableSignup],
  )
  const state = useSyncExternalStore(flow.subscribe, flow.getState, flow.getState)
  const callbacks = useRef({ onDone, onError })
  callbacks.current = { onDone, onError }
  const submitted = useRef<TelegramProof | null>(null)
  const submit = (sent: TelegramProof) => {
    submitted.current = sent
    void flow.submit(sent)
  }

  const start = () => {
    const initData = telegram?.seamless_auth_enabled ? readMiniAppInitData() : null
    if (proof) submit(proof)
    else if (initData) submit({ telegramWebAppData: initData })
    else if (telegram)
      redirectToTelegram(client, { botId: telegram.bot_id, intent, disableSignup, ui: 'modal' })
    else callbacks.current.onError(new LatchkeyError('TELEGRAM_NOT_ALLOWED'))
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per flow; Retry calls `start` again
  useEffect(() => {
    if (flow.getState().status === 'initial') start()
  }, [flow])

  useEffect(() => {
    if (state.status === 'success') callbacks.current.onDone(state)
    else if (state.status === 'failure') {
      const id = submitted.current ? telegramUserId(submitted.current) : undefined
      callbacks.current.onError(state.error, id ? { telegram_user_id: id } : undefined)
    }
  }, [state])

  if (!telegram && !proof)
    return (
      <TelegramStatusScreen
        state={{
          status: 'failure',
          error: new LatchkeyError('TELEGRAM_NOT_ALLOWED'),
          retryable: false,
        }}
        onBack={onBack}
      />
    )
  return (
    <TelegramStatusScreen
      state={state}
      onRetry={() => {
        flow.reset()
        start()
      }}
      onBack={onBack}
    />
  )
}
