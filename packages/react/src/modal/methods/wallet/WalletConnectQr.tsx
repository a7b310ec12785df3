import { poll } from '@latchkey/core'
import type { WalletOption } from '@latchkey/core/external'
import { COPY_FEEDBACK_MS, WALLET_CONNECT_REDIRECT_POLL_MS } from '@latchkey/protocol/constants'
import { useEffect, useState } from 'react'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { isMobileDevice } from '../../mobile.ts'
import { QrCode } from './QrCode.tsx'

/** Opens an app link (a `wc:` pairing URI): the phone hands it to a wallet app. */
export const openAppLink = (url: string) => globalThis.location.assign(url)

/**
 * On a phone the pairing code cannot be scanned by the phone that shows it,
 * so the screen opens the pairing link in a wallet app itself, once. A
 * browser does not open apps from a page in the background, so it checks
 * every 500 ms (spec 01 §9 "Wallet-connect redirect poll") until the page is
 * in front.
 */
function useOpenOnPhone(uri: string) {
  useEffect(() => {
    if (!isMobileDevice()) return
    const stop = new AbortController()
    void poll(() => (document.visibilityState === 'visible' ? true : undefined), {
      intervalMs: WALLET_CONNECT_REDIRECT_POLL_MS,
      signal: stop.signal,
    }).then((inFront) => {
      if (inFront && !stop.signal.aborted) openAppLink(uri)
    })
    return () => stop.abort()
  }, [uri])
}

/** WalletConnect: scan the pairing QR code, open it in a wallet app, or copy the link. */
export function WalletConnectQr({
  option,
  uri,
  onBack,
}: {
  option: WalletOption
  uri: string
  onBack(): void
}) {
  const [copied, setCopied] = useState(false)
  useOpenOnPhone(uri)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS)
    return () => clearTimeout(timer)
  }, [copied])
  return (
    <ScreenLayout
      title={`Scan with ${option.name}`}
      subtitle="Scan this code with a wallet app on your phone."
      onBack={onBack}
    >
      <div className="lk-qr-wrap">
        <QrCode value={uri} size="large" label={`${option.name} QR code`} />
      </div>
      <div className="lk-actions">
        <a className="lk-btn lk-btn-secondary" href={uri}>
          Open in app
        </a>
        <button
          type="button"
          className="lk-btn lk-btn-secondary"
          onClick={() =>
            void navigator.clipboard?.writeText(uri).then(
              () => setCopied(true),
              () => undefined,
            )
          }
        >
          {copied ? 'Copied' : 'Copy link'}
        </button>
      </div>
    </ScreenLayout>
  )
}
