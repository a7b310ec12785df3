import { type CaptchaController, createCaptchaController } from '@latchkey/core'
import type { LatchkeyInstance } from '../../store.ts'

/*
 * One captcha controller per provider instance and captcha configuration
 * (docs/captcha.md). The provider installs `captchaTokenFor` as the client's
 * token provider. It hands out tokens only while a captcha scope is open:
 * the modal's (or panel's) login flow, or an app's `useCaptcha()`. Headless
 * use — hooks with neither — runs no captcha at all (spec 01 §2: "when ...
 * the mode is not headless"): the start call goes without a token unless the
 * app passes one.
 */
const controllers = new WeakMap<LatchkeyInstance, { key: string; controller: CaptchaController }>()

/** The instance's captcha controller for its current app configuration ('disabled' without captcha). */
export function captchaFor(instance: LatchkeyInstance): CaptchaController {
  const config = instance.getUiState().appConfig
  const key = config?.captcha_enabled
    ? `${config.captcha_provider}:${config.captcha_site_key ?? ''}`
    : ''
  const current = controllers.get(instance)
  if (current?.key === key) return current.controller
  current?.controller.dispose()
  const { apiUrl, appId } = instance.client
  const onExpire = () => controller.expire()
  const controller = createCaptchaController(
    !config?.captcha_enabled
      ? null
      : config.captcha_provider === 'turnstile'
        ? () =>
            import('./turnstile.ts').then((m) =>
              m.createTurnstileSolver({ siteKey: config.captcha_site_key ?? '', onExpire }),
            )
        : () =>
            import('./altcha.ts').then((m) => m.createAltchaSolver({ apiUrl, appId, onExpire })),
  )
  controllers.set(instance, { key, controller })
  return controller
}

/** How many captcha scopes are open per instance (a modal and an app's useCaptcha may overlap). */
const scopes = new WeakMap<LatchkeyInstance, number>()

/**
 * Opens a captcha scope: until the returned function is called, login starts
 * get tokens from the instance's captcha. The caller drives when it solves
 * (CaptchaGate on the screens that need it; useCaptcha while mounted).
 */
export function enterCaptchaScope(instance: LatchkeyInstance): () => void {
  scopes.set(instance, (scopes.get(instance) ?? 0) + 1)
  let open = true
  return () => {
    if (!open) return
    open = false
    const left = (scopes.get(instance) ?? 1) - 1
    if (left > 0) scopes.set(instance, left)
    else scopes.delete(instance)
  }
}

/**
 * What the client's captcha token provider runs: a fresh single-use token
 * inside a captcha scope; outside one (headless), undefined — no widget is
 * loaded, mounted or run.
 */
export const captchaTokenFor = (instance: LatchkeyInstance): Promise<string | undefined> =>
  scopes.has(instance) ? captchaFor(instance).token() : Promise.resolve(undefined)

/**
 * The server refused a token (spec 01 §8: invalid captcha 'Please try again.'
 * and the captcha resets): any token solved before the answer is dropped,
 * and where the captcha runs it solves again, so the next attempt carries a
 * fresh one.
 */
export const captchaRejectedFor = (instance: LatchkeyInstance): void =>
  captchaFor(instance).expire()
