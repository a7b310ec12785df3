import type { ReactNode } from 'react'

export function StatusIcon({
  tone,
  children,
}: {
  tone: 'success' | 'error' | 'neutral'
  children: ReactNode
}) {
  return (
    <div className="lk-status-icon" data-tone={tone} aria-hidden="true">
      {children}
    </div>
  )
}
