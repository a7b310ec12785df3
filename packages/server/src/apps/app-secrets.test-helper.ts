import type { RequestOptions, TestInstance, TestResponse } from '../test/instance.ts'

/** `Basic base64(appId:secret)`, as an app backend sends it. */
export const basicAuth = (appId: string, secret: string): string =>
  `Basic ${Buffer.from(`${appId}:${secret}`).toString('base64')}`

/**
 * Calls an app-secret route as a backend does: Basic credentials of the
 * instance's app (or `appId`/`secret`), its `latchkey-app-id` header, no Origin.
 */
export function appRequest(
  t: TestInstance,
  path: string,
  options: RequestOptions & { secret?: string } = {},
): Promise<TestResponse> {
  const { secret = t.appSecret, headers, ...rest } = options
  const appId = rest.appId ?? t.app.id
  return t.request(path, {
    ...rest,
    headers: { authorization: basicAuth(appId, secret), ...headers },
  })
}
