/** 'US' → '🇺🇸' (a pair of regional indicator symbols). */
export const flagOf = (country: string) =>
  String.fromCodePoint(...[...country].map((ch) => 0x1f1e6 + ch.charCodeAt(0) - 65))

/**
 * Whether a platform draws a regional-indicator pair as one flag, from the
 * widths `measure` gives: a flag is one glyph, about as wide as a single
 * regional indicator; without an emoji font with flags (Windows, a bare
 * Linux) the pair draws as two letters or two empty boxes, twice as wide.
 * No measurement (no canvas) counts as no flags.
 */
export function drawsFlags(measure: ((text: string) => number) | null): boolean {
  if (!measure) return false
  const single = measure(String.fromCodePoint(0x1f1fa))
  const pair = measure(flagOf('US'))
  return single > 0 && pair > 0 && pair < single * 1.5
}

let cached: boolean | undefined

/**
 * Whether this browser can draw flag emoji, measured once with a canvas. The
 * phone form shows the ISO code in a badge ('US') where it cannot, instead
 * of two empty boxes: no flag images to ship.
 */
export function canDrawFlagEmoji(): boolean {
  if (cached !== undefined) return cached
  if (typeof document === 'undefined') return false
  cached = drawsFlags(canvasMeasure())
  return cached
}

/** Tests measure again with their own canvas. */
export function forgetFlagEmojiSupport(): void {
  cached = undefined
}

function canvasMeasure(): ((text: string) => number) | null {
  try {
    const context = document.createElement('canvas').getContext('2d')
    if (!context) return null
    context.font = '32px sans-serif'
    return (text) => context.measureText(text).width
  } catch {
    return null
  }
}
