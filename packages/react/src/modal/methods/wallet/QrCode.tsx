import {
  QR_CODE_ERROR_CORRECTION,
  QR_CODE_LARGE_MAX_PX,
  QR_CODE_LARGE_MIN_PX,
  QR_CODE_SIZE_PX,
} from '@latchkey/protocol/constants'
import { useMemo } from 'react'
import { encode } from 'uqr'

/** A large code fills the screen's width, from 240 to 280 px (spec 01 §9). */
const LARGE_STYLE = {
  width: '100%',
  minWidth: QR_CODE_LARGE_MIN_PX,
  maxWidth: QR_CODE_LARGE_MAX_PX,
  height: 'auto',
}

/**
 * A QR code drawn as one SVG path, so a phone can scan a pairing or sign-in
 * link (spec 01 §9: 160 px by default, 240 to 280 px for a code the screen
 * is about — `size="large"` —, error correction Q).
 */
export function QrCode({
  value,
  size = QR_CODE_SIZE_PX,
  label,
}: {
  value: string
  /** Pixels, or `large`: 240 to 280 px as the screen's width allows. */
  size?: number | 'large'
  label: string
}) {
  const { path, modules } = useMemo(() => {
    const qr = encode(value, { ecc: QR_CODE_ERROR_CORRECTION, border: 1 })
    let d = ''
    qr.data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`
      })
    })
    return { path: d, modules: qr.size }
  }, [value])
  const pixels = size === 'large' ? QR_CODE_LARGE_MAX_PX : size
  return (
    <svg
      className="lk-qr"
      role="img"
      aria-label={label}
      width={pixels}
      height={pixels}
      style={size === 'large' ? LARGE_STYLE : undefined}
      viewBox={`0 0 ${modules} ${modules}`}
      shapeRendering="crispEdges"
      data-qr-value={value}
    >
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
