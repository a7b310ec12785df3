import {
  QR_CODE_LARGE_MAX_PX,
  QR_CODE_LARGE_MIN_PX,
  QR_CODE_SIZE_PX,
} from '@latchkey/protocol/constants'
import { cleanup, render, screen } from '@testing-library/react'
import { encode } from 'uqr'
import { afterEach, describe, expect, it } from 'vitest'
import { QrCode } from './QrCode.tsx'

// Spec 01 §9: "QR sizes 160 default, 240 to 280; error correction Q."

const URI =
  'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn'
const qr = () => screen.getByRole('img', { name: 'Pairing QR code' })

afterEach(() => {
  cleanup()
})

describe('QrCode', () => {
  it('is 160 px by default', () => {
    expect(QR_CODE_SIZE_PX).toBe(160)
    render(<QrCode value={URI} label="Pairing QR code" />)
    expect(qr().getAttribute('width')).toBe('160')
    expect(qr().getAttribute('height')).toBe('160')
    expect(qr().getAttribute('style')).toBeNull()
  })

  it('a large code is 280 px, shrinking with a narrow screen to no less than 240 px', () => {
    expect([QR_CODE_LARGE_MIN_PX, QR_CODE_LARGE_MAX_PX]).toEqual([240, 280])
    render(<QrCode value={URI} size="large" label="Pairing QR code" />)
    expect(qr().getAttribute('width')).toBe('280')
    expect(qr().getAttribute('height')).toBe('280')
    expect(qr().style.width).toBe('100%')
    expect(qr().style.minWidth).toBe('240px')
    expect(qr().style.maxWidth).toBe('280px')
    expect(qr().style.height).toBe('auto')
  })

  it('draws the value with error correction Q', () => {
    render(<QrCode value={URI} label="Pairing QR code" />)
    const q = encode(URI, { ecc: 'Q', border: 1 })
    expect(encode(URI, { ecc: 'L', border: 1 }).size).not.toBe(q.size)
    expect(qr().getAttribute('viewBox')).toBe(`0 0 ${q.size} ${q.size}`)
    const dark = q.data.flat().filter(Boolean).length
    expect(qr().querySelector('path')?.getAttribute('d')?.match(/M/g)).toHaveLength(dark)
  })
})
