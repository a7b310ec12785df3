import { createContext, useContext } from 'react'

/** What the surrounding shell (dialog or standalone panel) gives every screen. */
export interface Chrome {
  /** The id the shell's `aria-labelledby` points at; the screen's title carries it. */
  titleId: string
  /** Present in the dialog: closes it. */
  onClose?: () => void
}

export const ChromeContext = createContext<Chrome>({ titleId: 'lk-title' })
export const useChrome = () => useContext(ChromeContext)
