import type { CSSProperties } from 'react'
import type { ResolvedConfig } from '../config.ts'

/** Black or white text, whichever reads better on `color` (a #rgb or #rrggbb hex; white otherwise). */
export function readableOn(color: string): string {
  const hex = color.trim().replace(/^#/, '')
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex
  if (!/^[0-9a-f]{6}$/i.test(full)) return '#ffffff'
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(full.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
  return luminance > 0.45 ? '#111114' : '#ffffff'
}

/** The custom properties and theme attribute every Latchkey root carries. */
export function themeProps(config: ResolvedConfig): {
  'data-lk-theme': 'light' | 'dark'
  style: CSSProperties
} {
  return {
    'data-lk-theme': config.theme,
    style: {
      '--lk-accent': config.accentColor,
      '--lk-accent-fg': readableOn(config.accentColor),
    } as CSSProperties,
  }
}
