import { QR_CODE_SIZE_PX } from '@latchkey/protocol/constants'
import { useMemo } from 'react'
import { encode } from 'uqr'

/**
 * A QR code drawn as one SVG path (spec 01 §9: 160 px by default, error
 * correction Q), so a phone wallet can scan a pairing or sign-in link.
 */
export function QrCode({
  value,
  size = QR_CODE_SIZE_PX,
  label,
}: {
  value: string
  size?: number
  label: string
}) {
  const { path, modules } = useMemo(() => {
    const qr = encode(value, { ecc: 'Q', border: 1 })
    let d = ''
    qr.data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`
      })
    })
    return { path: d, modules: qr.size }
  }, [value])
  return (
    <svg
      className="lk-qr"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shapeRendering="crispEdges"
      data-qr-value={value}
    >
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
