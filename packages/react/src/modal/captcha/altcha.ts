import { type CaptchaSolver, LatchkeyError } from '@latchkey/core'

/** What the altcha v3 element exposes once loaded (altcha `WidgetMethods`). */
interface AltchaElement extends HTMLElement {
  reset(): void
  verify(): Promise<{ payload: string } | null>
}

/** The page area widgets live in: off screen, out of the accessibility tree. */
function hiddenHost(): HTMLDivElement {
  const host = document.createElement('div')
  host.setAttribute('aria-hidden', 'true')
  host.style.cssText =
    'position:fixed;left:-10000px;top:0;width:1px;height:1px;overflow:hidden;opacity:0;pointer-events:none'
  document.body.append(host)
  return host
}

/**
 * The self-hosted ALTCHA captcha (docs/captcha.md): the `altcha` widget,
 * imported only now (it is not in the modal's first chunk), invisible, its
 * challenge fetched from the Latchkey server with a plain GET (the app id in
 * the query) and solved in web workers. Each `solve()` is a fresh challenge.
 */
export async function createAltchaSolver(options: {
  apiUrl: string
  appId: string
  onExpire(): void
}): Promise<CaptchaSolver> {
  await import('altcha')
  const host = hiddenHost()
  const widget = document.createElement('altcha-widget') as AltchaElement
  const url = new URL('/api/v1/captcha/altcha/challenge', options.apiUrl)
  url.searchParams.set('app_id', options.appId)
  widget.setAttribute('challenge', url.href)
  widget.setAttribute('auto', 'off')
  widget.setAttribute('display', 'invisible')
  const loaded = new Promise<void>((resolve) => {
    widget.addEventListener('load', () => resolve(), { once: true })
    setTimeout(resolve, 2_000)
  })
  host.append(widget)
  await loaded
  widget.addEventListener('expired', () => options.onExpire())
  return {
    async solve(signal) {
      const abort = () => widget.reset()
      signal.addEventListener('abort', abort)
      try {
        widget.reset()
        const result = await widget.verify()
        if (!result?.payload) throw new LatchkeyError('CAPTCHA_FAILED')
        return result.payload
      } finally {
        signal.removeEventListener('abort', abort)
      }
    },
    dispose: () => host.remove(),
  }
}
