import { useEffect, useState } from 'react'

/**
 * A confirm screen's USD price of the native currency (spec 03 §7), asked
 * once per request: null until it arrives, and for good when the request
 * has no `usdPrice` or it answers null or fails — spec 03 §7: no fiat price
 * is shown then (core has already logged why).
 *
 * @example
 * const usdPrice = useUsdPrice(request.usdPrice)
 * usdValue(prepared.estimatedFee, 18, usdPrice) // '$0.13', or undefined
 */
export function useUsdPrice(usdPrice: (() => Promise<number | null>) | undefined): number | null {
  const [price, setPrice] = useState<number | null>(null)
  useEffect(() => {
    setPrice(null)
    if (!usdPrice) return
    let live = true
    usdPrice().then(
      (usd) => {
        if (live) setPrice(usd)
      },
      () => {},
    )
    return () => {
      live = false
    }
  }, [usdPrice])
  return price
}
