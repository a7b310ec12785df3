import { COPY_CONFIRM_ICON_MS, COPY_FEEDBACK_MS } from '@latchkey/protocol/constants'
import { useCallback, useEffect, useState } from 'react'

export interface CopyFeedback {
  /** Writes `text` to the clipboard; the feedback starts once the browser confirms. */
  copy(text: string): void
  /** The button reads 'Copied' (1.5 s). */
  copied: boolean
  /** The button shows the confirm (check) icon (2 s). */
  confirmIcon: boolean
}

/**
 * Spec 02 §9: after a copy, 'Copied' for 1.5 s and the confirm icon for 2 s.
 * A second copy restarts both; a refused clipboard write shows nothing.
 */
export function useCopyFeedback(): CopyFeedback {
  const [state, setState] = useState({ copies: 0, copied: false, confirmIcon: false })

  useEffect(() => {
    if (state.copies === 0) return
    const label = setTimeout(() => setState((s) => ({ ...s, copied: false })), COPY_FEEDBACK_MS)
    const icon = setTimeout(
      () => setState((s) => ({ ...s, confirmIcon: false })),
      COPY_CONFIRM_ICON_MS,
    )
    return () => {
      clearTimeout(label)
      clearTimeout(icon)
    }
  }, [state.copies])

  const copy = useCallback((text: string) => {
    void navigator.clipboard?.writeText(text).then(
      () => setState((s) => ({ copies: s.copies + 1, copied: true, confirmIcon: true })),
      () => undefined,
    )
  }, [])

  return { copy, copied: state.copied, confirmIcon: state.confirmIcon }
}
