import { afterEach, expect, it, vi } from 'vitest'

// The catalogue is not part of the SDK's first load (error-messages.ts). Each
// test imports core's modules fresh, as a page does before anything failed.
afterEach(() => {
  vi.unstubAllGlobals()
  vi.resetModules()
})

async function freshCore() {
  vi.resetModules()
  const messages = await import('./error-messages.ts')
  const { LatchkeyError } = await import('./errors.ts')
  const { createHttpClient } = await import('./http.ts')
  return { ...messages, LatchkeyError, createHttpClient }
}

it('an error made before the catalogue arrived reads its code, then the wording once it is here', async () => {
  const core = await freshCore()
  expect(core.loadedErrorMessages()).toBeUndefined()
  const error = new core.LatchkeyError('INVALID_CODE')
  expect(error.message).toBe('INVALID_CODE')
  expect(error.shortMessage).toBe('INVALID_CODE')
  // Making it started the load; once it lands the same error reads the catalogue.
  const catalogue = await core.loadErrorMessages()
  expect(error.message).toBe(catalogue.INVALID_CODE.title)
  expect(error.userMessage).toEqual(catalogue.INVALID_CODE)
  // A message given explicitly is kept either way.
  expect(new core.LatchkeyError('INVALID_CODE', 'said so').message).toBe('said so')
})

it("a server's error waits for the catalogue: a known code keeps its code and wording", async () => {
  const core = await freshCore()
  const body = JSON.stringify({ code: 'CANNOT_LINK_MORE_OF_TYPE', message: 'Only one phone.' })
  const fetch = vi.fn(async () => new Response(body, { status: 400 }))
  const http = core.createHttpClient({ apiUrl: 'http://api.test', appId: 'app', fetch })
  const error = await http.request('/x', { method: 'POST', body: {} }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(core.LatchkeyError)
  expect(error).toMatchObject({
    code: 'CANNOT_LINK_MORE_OF_TYPE',
    serverMessage: 'Only one phone.',
  })
  expect(core.loadedErrorMessages()).toBeDefined()
})

it("a newer server's code is not known here: INTERNAL_ERROR with the server's words on a 400", async () => {
  const core = await freshCore()
  const body = JSON.stringify({ code: 'SOME_FUTURE_CODE', message: 'Explained by the server.' })
  const fetch = vi.fn(async () => new Response(body, { status: 400 }))
  const http = core.createHttpClient({ apiUrl: 'http://api.test', appId: 'app', fetch })
  const error = await http.request('/x', { method: 'POST', body: {} }).catch((e: unknown) => e)
  expect(error).toMatchObject({ code: 'INTERNAL_ERROR' })
  expect((error as InstanceType<typeof core.LatchkeyError>).userMessage.title).toBe(
    'Explained by the server.',
  )
})
