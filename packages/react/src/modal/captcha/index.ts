import { type CaptchaController, createCaptchaController } from '@latchkey/core'
import type { LatchkeyInstance } from '../../store.ts'

/*
 * One captcha controller per provider instance and captcha configuration
 * (docs/captcha.md). The provider installs `captchaTokenFor` as the client's
 * token provider (headless hooks use it too); the modal drives auto-execute,
 * reset on close and the visible screen through the same controller.
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

/** What the client's captcha token provider runs: a fresh single-use token. */
export const captchaTokenFor = (instance: LatchkeyInstance) => captchaFor(instance).token()
