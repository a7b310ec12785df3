import { type ErrorCode, errorMessages } from '@latchkey/protocol/errors'
import { useEffect, useRef, useState } from 'react'
import type { ExportWalletRequest } from '../../store.ts'
import { ScreenLayout } from '../components/ScreenLayout.tsx'

/** A session the export page found missing or expired reads as spec 03 §8 says for export. */
const exportError = (code: ErrorCode | undefined): ErrorCode =>
  code === 'NOT_AUTHENTICATED' || code === 'WALLET_NOT_AUTHENTICATED'
    ? 'EXPORT_NOT_AUTHENTICATED'
    : (code ?? 'INTERNAL_ERROR')

export interface ExportWalletScreenProps {
  request: ExportWalletRequest
  /** The user copied a key: the export happened (closing then resolves). */
  onExported(): void
  /** Escape pressed inside the export page (which the host's keydown never sees). */
  onClose(): void
}

/**
 * Export (spec 03): the enclave's own export page, framed visibly in the
 * modal. It shows and copies the private key or seed phrase itself; this page
 * only hands it the access token once it says it is ready, and never receives
 * key material (security bar 44). Messages are accepted from that frame and
 * the server's exact origin only, and sent to that origin only. Escape
 * inside the frame arrives as `latchkey:export:escape` and closes the dialog.
 */
export function ExportWalletScreen({ request, onExported, onClose }: ExportWalletScreenProps) {
  const frame = useRef<HTMLIFrameElement>(null)
  const [error, setError] = useState<ErrorCode | null>(null)
  const callbacks = useRef({ onExported, onClose })
  callbacks.current = { onExported, onClose }

  useEffect(() => {
    const origin = new URL(request.url).origin
    let initialised = false
    function onMessage(event: MessageEvent) {
      const source = frame.current?.contentWindow
      // A frame without a window yet (or a null source) never matches.
      if (!source || event.origin !== origin || event.source !== source) return
      const message = event.data as {
        event?: unknown
        data?: { code?: ErrorCode; what?: 'private_key' | 'seed_phrase' }
      }
      if (message?.event === 'latchkey:export:ready' && !initialised) {
        initialised = true
        frame.current?.contentWindow?.postMessage(
          { event: 'latchkey:export:init', data: request.init },
          origin,
        )
      } else if (message?.event === 'latchkey:export:copied') {
        const what = message.data?.what
        if (what === 'private_key' || what === 'seed_phrase') request.onCopied?.(what)
        callbacks.current.onExported()
      } else if (message?.event === 'latchkey:export:escape') callbacks.current.onClose()
      else if (message?.event === 'latchkey:export:error') setError(exportError(message.data?.code))
    }
    window.addEventListener('message', onMessage)
    return () => window.removeEventListener('message', onMessage)
  }, [request])

  return (
    <ScreenLayout title="Export wallet">
      {error && (
        <p className="lk-error" role="alert">
          {(errorMessages[error] ?? errorMessages.INTERNAL_ERROR).title}
        </p>
      )}
      <iframe
        ref={frame}
        className="lk-export-frame"
        title="Export your wallet"
        src={request.url}
        allow="clipboard-write"
        referrerPolicy="no-referrer"
      />
    </ScreenLayout>
  )
}
