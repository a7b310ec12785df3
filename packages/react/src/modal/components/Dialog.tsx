import { type ReactNode, useEffect, useRef } from 'react'
import { createPortal } from 'react-dom'
import { trapTab } from './focus-trap.ts'

export interface DialogProps {
  /** Accepting input; false while the closing animation plays. */
  open: boolean
  /** Drives the enter/leave transition. */
  visible: boolean
  onClose(): void
  titleId: string
  /** The themed root's attributes (data-lk-theme, --lk-* properties). */
  rootProps: Record<string, unknown>
  children: ReactNode
}

/**
 * The modal shell: a portal on document.body with an overlay, role="dialog"
 * aria-modal, a focus trap, Escape and backdrop click to close, and the page
 * scroll locked while open. Centred and 360 px wide above 440 px, a bottom
 * sheet below (CSS).
 */
export function Dialog({ open, visible, onClose, titleId, rootProps, children }: DialogProps) {
  const dialog = useRef<HTMLDivElement>(null)
  const close = useRef(onClose)
  close.current = onClose

  useEffect(() => {
    if (!open) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault()
        close.current()
      } else if (event.key === 'Tab' && dialog.current) trapTab(event, dialog.current)
    }
    document.addEventListener('keydown', onKeyDown)
    const overflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    // A screen's own autofocus runs first; otherwise the dialog itself takes focus.
    if (dialog.current && !dialog.current.contains(document.activeElement)) dialog.current.focus()
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      document.body.style.overflow = overflow
    }
  }, [open])

  return createPortal(
    <div className="lk-root" {...rootProps}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop is a pointer shortcut; Escape and the Close button are the accessible ways out */}
      <div
        className="lk-overlay"
        data-state={visible ? 'open' : 'closed'}
        onMouseDown={(event) => {
          if (open && event.target === event.currentTarget) close.current()
        }}
      >
        <div
          ref={dialog}
          className="lk-dialog"
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          tabIndex={-1}
        >
          {children}
        </div>
      </div>
    </div>,
    document.body,
  )
}
