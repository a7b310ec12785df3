import {
  authorizeCrossAppRequest,
  type CrossAppPageRequest,
  getCrossAppRequester,
  LatchkeyError,
  postCrossAppAnswer,
  readCrossAppPageRequest,
  toLatchkeyError,
  verifyCrossAppTransact,
} from '@latchkey/core'
import { formatUserMessage } from '@latchkey/protocol/errors'
import type { CrossAppRequester } from '@latchkey/protocol/schemas'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useLatchkeyInstance, useUiState } from '../context.ts'
import { useLogin } from '../hooks/useLogin.ts'
import { useResolvedConfig } from '../hooks/useResolvedConfig.ts'
import { useSendTransaction } from '../hooks/useSendTransaction.ts'
import { useSession } from '../hooks/useSession.ts'
import { useSignMessage } from '../hooks/useSignMessage.ts'
import { useSignTypedData } from '../hooks/useSignTypedData.ts'
import { themeProps } from '../modal/theme.ts'
import { addressOf, runCrossAppRequest } from './run-request.ts'

export interface CrossAppProviderPageProps {
  /** The query to read (default `window.location.search`). */
  search?: string
  /** Closes the popup once answered (default `window.close()`). */
  onAnswered?: () => void
}

type View =
  | { status: 'login' }
  | { status: 'loading' }
  | { status: 'consent'; requester: CrossAppRequester }
  | { status: 'signing'; requester: CrossAppRequester }
  | { status: 'done' }
  | { status: 'failed'; message: string }

/** A user's rejection anywhere in the provider's own screens (4001 and its kin). */
const isRejection = (code: string) =>
  code === 'WALLET_USER_REJECTED' || code === 'USER_REJECTED' || /REJECTED|EXITED/.test(code)

/**
 * The provider app's cross-app page (docs/cross-app.md): mount it on the
 * page named by the app's `cross_app.custom_api_url`, inside
 * `<LatchkeyProvider appId={providerAppId}>`. Opened by a requester app in a
 * popup, it logs the user in to this app (the normal modal), then:
 * - `authorize`: asks '{requester} wants to connect to your account' (Accept
 *   / Decline) and hands the requester a single-use code;
 * - `transact`: checks the requester's token with the server and shows this
 *   app's own confirmation (sign message, typed data, transaction), so the
 *   key never leaves this app's enclave.
 * The answer goes to `window.opener` at the requester's exact origin. Renders
 * nothing on a page load without a cross-app request.
 *
 * @example
 * <LatchkeyProvider appId={PROVIDER_APP_ID} apiUrl={API_URL}>
 *   <CrossAppProviderPage />
 *   <App />
 * </LatchkeyProvider>
 */
export function CrossAppProviderPage({ search, onAnswered }: CrossAppProviderPageProps) {
  const instance = useLatchkeyInstance()
  const { client } = instance
  const session = useSession(client)
  const appName = useUiState(instance).appConfig?.name ?? 'app'
  const config = useResolvedConfig(instance)
  const { login } = useLogin()
  const { signMessage } = useSignMessage()
  const { signTypedData } = useSignTypedData()
  const { sendTransaction } = useSendTransaction()
  const request = useMemo(
    () => readCrossAppPageRequest(search ?? globalThis.location?.search ?? ''),
    [search],
  )
  const [view, setView] = useState<View>({ status: 'loading' })
  const asked = useRef(false)
  const started = useRef(false)
  const signers = useRef({ signMessage, signTypedData, sendTransaction })
  signers.current = { signMessage, signTypedData, sendTransaction }
  const close = useRef(onAnswered ?? (() => globalThis.close()))
  close.current = onAnswered ?? (() => globalThis.close())

  const answer = (req: CrossAppPageRequest, message: Parameters<typeof postCrossAppAnswer>[1]) => {
    postCrossAppAnswer(req, message)
    setView({ status: 'done' })
    close.current()
  }
  // Set once the server confirmed the origin belongs to the requester: nothing
  // (not even an error) is posted to an origin it has not vouched for.
  const confirmed = useRef(false)
  const fail = (req: CrossAppPageRequest, cause: unknown) => {
    const error = toLatchkeyError(cause)
    if (confirmed.current && isRejection(error.code)) return answer(req, { result: 'rejected' })
    setView({ status: 'failed', message: formatUserMessage(error.code, { app: appName }).title })
    if (confirmed.current) postCrossAppAnswer(req, { result: 'error', code: error.code })
  }

  // The modal's look (its lazy stylesheet), only on a page load with a request.
  // The choice waits for it: a stylesheet arriving under the user's pointer
  // would move Accept and Decline as they are clicked.
  const [styled, setStyled] = useState(false)
  useEffect(() => {
    if (!request) return
    void import('./provider-page-styles.ts').then((m) => {
      m.injectCrossAppPageStyles()
      setStyled(true)
    })
  }, [request])

  // Not logged in to this app: its own login modal, once by itself.
  useEffect(() => {
    if (!request || session.status !== 'unauthenticated') return
    setView({ status: 'login' })
    if (asked.current) return
    asked.current = true
    login()
  }, [request, session.status, login])

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per logged-in request
  useEffect(() => {
    if (!request || session.status !== 'authenticated' || started.current) return
    started.current = true
    setView({ status: 'loading' })
    ;(async () => {
      try {
        if (request.kind === 'authorize') {
          const requester = await getCrossAppRequester(client, request)
          confirmed.current = true
          setView({ status: 'consent', requester })
          return
        }
        const verified = await verifyCrossAppTransact(client, request)
        confirmed.current = true
        const address = addressOf(request.request).toLowerCase()
        if (!verified.addresses.some((a) => a.toLowerCase() === address))
          throw new LatchkeyError('CROSS_APP_ADDRESS_NOT_CONNECTED')
        setView({ status: 'signing', requester: verified.requester_app })
        const data = await runCrossAppRequest(signers.current, request.request)
        answer(request, { result: 'signed', data })
      } catch (cause) {
        fail(request, cause)
      }
    })()
  }, [request, session.status])

  if (!request) return null
  const accept = async () => {
    if (request.kind !== 'authorize') return
    setView({ status: 'loading' })
    try {
      const { code } = await authorizeCrossAppRequest(client, request)
      answer(request, { result: 'code', code })
    } catch (cause) {
      fail(request, cause)
    }
  }
  return (
    <section
      className="lk-root lk-cross-app-page"
      {...themeProps(config)}
      aria-live="polite"
      data-testid="lk-cross-app-page"
    >
      <div className="lk-cross-app-card">
        {view.status === 'login' && (
          <>
            <p className="lk-subtitle">Log in to continue.</p>
            <div className="lk-actions">
              <button type="button" className="lk-btn lk-btn-primary" onClick={() => login()}>
                Log in
              </button>
            </div>
          </>
        )}
        {(view.status === 'loading' || (view.status === 'consent' && !styled)) && (
          <p className="lk-subtitle">Loading…</p>
        )}
        {view.status === 'consent' && styled && (
          <>
            {view.requester.logo_url && (
              <img
                className="lk-cross-app-logo"
                src={view.requester.logo_url}
                alt=""
                width={48}
                height={48}
              />
            )}
            <h2 className="lk-title">{view.requester.name} wants to connect to your account</h2>
            <p className="lk-subtitle">
              It will see your account id and wallet addresses, and may ask you to sign.
            </p>
            <div className="lk-actions">
              <button type="button" className="lk-btn lk-btn-primary" onClick={() => void accept()}>
                Accept
              </button>
              <button
                type="button"
                className="lk-btn lk-btn-secondary"
                onClick={() => answer(request, { result: 'rejected' })}
              >
                Decline
              </button>
            </div>
          </>
        )}
        {view.status === 'signing' && (
          <p className="lk-subtitle">{view.requester.name} asks for your signature.</p>
        )}
        {view.status === 'done' && <p className="lk-subtitle">Done. You can close this window.</p>}
        {view.status === 'failed' && (
          <p className="lk-alert" role="alert">
            {view.message}
          </p>
        )}
      </div>
    </section>
  )
}
