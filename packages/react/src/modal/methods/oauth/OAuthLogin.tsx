import {
  completeOAuth,
  initOAuth,
  type LatchkeyClient,
  LatchkeyError,
  type OAuthReturn,
  toLatchkeyError,
  type User,
} from '@latchkey/core'
import { type ErrorCode, errorMessages } from '@latchkey/protocol/errors'
import type { OAuthProvider } from '@latchkey/protocol/schemas'
import { useEffect, useRef, useState } from 'react'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { OAuthStatusScreen } from './OAuthStatusScreen.tsx'

export interface OAuthLoginProps {
  client: LatchkeyClient
  provider: OAuthProvider
  /** The provider's return to finish; null after a failed start (`startError`). */
  ret: OAuthReturn | null
  /** Why leaving for the provider failed. */
  startError?: OAuthFailure | null
  intent: 'login' | 'link'
  disableSignup: boolean
  /** Logged in or linked: the flow shows 'Successfully connected with {provider}' next. */
  onDone(result: { user: User; isNewUser: boolean }): void
  /**
   * A failure the flow may route (spec 02 §8: allowlist, limit, transfer…),
   * with the account tried. An OAuth return does not tell this page the
   * provider's subject, so only the provider is named.
   */
  onError(error: LatchkeyError, account?: { provider: OAuthProvider }): void
  onBack(): void
}

export interface OAuthFailure {
  code: ErrorCode
  /** The error's message (the server's, when it sent one). */
  message: string
}

const toFailure = (error: unknown): OAuthFailure & { error: LatchkeyError } => {
  const e = toLatchkeyError(error)
  return { code: e.code, message: e.message, error: e }
}

/**
 * Leaves for the provider from the modal (the return reopens the modal to
 * finish). Resolves with the failure when the page could not leave.
 */
export async function startOAuthFromModal(
  client: LatchkeyClient,
  parameters: { provider: OAuthProvider; intent: 'login' | 'link'; disableSignup: boolean },
): Promise<OAuthFailure | null> {
  try {
    await initOAuth(client, { ...parameters, ui: 'modal' })
    return null
  } catch (error) {
    const { code, message } = toFailure(error)
    return { code, message }
  }
}

// One completion per return, however often the screen mounts (StrictMode replays effects).
const completions = new WeakMap<OAuthReturn, ReturnType<typeof completeOAuth>>()
const completeOnce = (client: LatchkeyClient, ret: OAuthReturn) => {
  let completion = completions.get(ret)
  if (!completion) {
    completion = completeOAuth(client, ret)
    completions.set(ret, completion)
  }
  return completion
}

/**
 * A social login's return inside the modal (spec 01 §4 "OAuth"): 'Verifying
 * connection to {provider}' while the server exchanges the code, then the
 * result goes to the flow (which shows 'Successfully connected with
 * {provider}'), or 'Authentication failed' with Retry when retryable —
 * Retry leaves for the provider again.
 */
export function OAuthLogin({
  client,
  provider,
  ret,
  startError = null,
  intent,
  disableSignup,
  onDone,
  onError,
  onBack,
}: OAuthLoginProps) {
  const [failure, setFailure] = useState<OAuthFailure | null>(startError)
  const callbacks = useRef({ onDone, onError })
  callbacks.current = { onDone, onError }

  useEffect(() => {
    if (!ret) return
    let live = true
    completeOnce(client, ret).then(
      (done) => live && callbacks.current.onDone(done),
      (error) => {
        if (!live) return
        const f = toFailure(error)
        setFailure(f)
        callbacks.current.onError(f.error, { provider })
      },
    )
    return () => {
      live = false
    }
  }, [client, ret, provider])

  const retry = async () => {
    setFailure(null)
    const f = await startOAuthFromModal(client, { provider, intent, disableSignup })
    if (f) {
      setFailure(f)
      callbacks.current.onError(new LatchkeyError(f.code, f.message), { provider })
    }
  }

  return (
    <OAuthStatusScreen
      provider={provider}
      status={failure ? 'error' : 'loading'}
      errorCode={failure?.code}
      // Spec 01 §8: a link beyond the one-per-provider limit shows the server's message.
      errorMessage={failure?.code === 'CANNOT_LINK_MORE_OF_TYPE' ? failure.message : undefined}
      onRetry={() => void retry()}
      onBack={onBack}
    />
  )
}

/** Spec 01 §8 "In-app browser": social login cannot finish in an app's embedded browser. */
export function InAppBrowserScreen({ onClose }: { onClose(): void }) {
  return (
    <ScreenLayout
      title={errorMessages.IN_APP_BROWSER.title}
      subtitle={errorMessages.IN_APP_BROWSER.detail}
      onBack={onClose}
    >
      <div className="lk-actions">
        <button type="button" className="lk-btn lk-btn-secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </ScreenLayout>
  )
}
