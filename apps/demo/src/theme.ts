import { useEffect, useState } from 'react'

export type Theme = 'light' | 'dark'
const KEY = 'latchkey-demo:theme'

function initialTheme(): Theme {
  const stored = localStorage.getItem(KEY)
  if (stored === 'light' || stored === 'dark') return stored
  return matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

/** The page theme, remembered in localStorage and mirrored on <html data-theme>. */
export function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(initialTheme)
  useEffect(() => {
    document.documentElement.dataset.theme = theme
    localStorage.setItem(KEY, theme)
  }, [theme])
  return [theme, () => setTheme((t) => (t === 'light' ? 'dark' : 'light'))]
}
