import type { Theme } from '../theme.ts'
import { ThemeToggle } from './ThemeToggle.tsx'

export function Header({
  theme,
  onToggleTheme,
  apiUrl,
}: {
  theme: Theme
  onToggleTheme: () => void
  apiUrl: string
}) {
  return (
    <header className="header">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.2"
            strokeLinecap="round"
          >
            <path d="M8 11V8a4 4 0 0 1 8 0v3" />
            <rect x="5.5" y="11" width="13" height="9" rx="2" fill="currentColor" stroke="none" />
          </svg>
        </span>
        <span className="brand-name">Latchkey</span>
        <span className="brand-tag">demo</span>
      </div>
      <div className="header-actions">
        <span className="server-pill" title="Latchkey server">
          <span className="dot" aria-hidden="true" />
          {apiUrl.replace(/^https?:\/\//, '')}
        </span>
        <ThemeToggle theme={theme} onToggle={onToggleTheme} />
      </div>
    </header>
  )
}
