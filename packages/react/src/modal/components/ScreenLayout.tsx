import type { ReactNode } from 'react'
import { useChrome } from './chrome.ts'
import { BackIcon, CloseIcon } from './icons.tsx'

export interface ScreenLayoutProps {
  title: string
  subtitle?: ReactNode
  /** Drawn above the title (app logo, status icon). */
  media?: ReactNode
  onBack?: () => void
  footer?: ReactNode
  children?: ReactNode
}

/** The frame every screen shares: back/close row, header, body, footer. */
export function ScreenLayout({
  title,
  subtitle,
  media,
  onBack,
  footer,
  children,
}: ScreenLayoutProps) {
  const { titleId, onClose } = useChrome()
  return (
    <div className="lk-screen">
      <div className="lk-nav">
        {onBack ? (
          <button type="button" className="lk-icon-btn" onClick={onBack} aria-label="Back">
            <BackIcon />
          </button>
        ) : (
          <span />
        )}
        {onClose && (
          <button type="button" className="lk-icon-btn" onClick={onClose} aria-label="Close">
            <CloseIcon />
          </button>
        )}
      </div>
      <div className="lk-head">
        {media}
        <h2 className="lk-title" id={titleId}>
          {title}
        </h2>
        {subtitle && <p className="lk-subtitle">{subtitle}</p>}
      </div>
      <div className="lk-body">{children}</div>
      {footer}
    </div>
  )
}
