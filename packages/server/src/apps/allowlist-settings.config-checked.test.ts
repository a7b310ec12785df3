import { expect, it } from 'vitest'
import { assertAllowlistConfig } from './allowlist-settings.ts'

// `allowlist_config` reaches every browser in the app config, whose schema
// wants strings or null: anything else is refused when the app is saved, and
// the button link must be an http(s) page.

it('accepts the rejection texts, null and an http(s) link', () => {
  expect(() =>
    assertAllowlistConfig({
      error_title: 'Invite only',
      error_detail: null,
      error_cta_text: 'Join the waitlist',
      error_cta_link: 'https://example.com/join',
    }),
  ).not.toThrow()
  expect(() => assertAllowlistConfig({})).not.toThrow()
})

it.each([
  [{ error_title: 5 }, 'error_title'],
  [{ error_cta_link: 'javascript:alert(1)' }, 'error_cta_link: must be an http(s) URL'],
  [{ error_cta_link: 'not a url' }, 'error_cta_link: must be an http(s) URL'],
  [{ error_detail: 'x'.repeat(1001) }, 'error_detail'],
  [{ error_titel: 'typo' }, 'error_titel'],
  ['Invite only', 'allowlist_config'],
])('refuses %j, naming %s', (value, named) => {
  expect(() => assertAllowlistConfig(value)).toThrow(`Invalid allowlist_config: `)
  expect(() => assertAllowlistConfig(value)).toThrow(named)
})
