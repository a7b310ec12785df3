import { expect, it } from 'vitest'
import { css } from './styles.ts'

// docs/testing.md: a backdrop-filter over the whole viewport is drawn again on
// every animation frame of the modal's spinner in a software compositor (87%
// of a core in headless Chromium, against 3% without). The overlay dims the
// page; nothing in the modal blurs what is behind it.
it('has no backdrop-filter: the overlay dims the page without blurring it', () => {
  expect(css).not.toMatch(/backdrop-filter/)
  expect(css).toMatch(/\.lk-overlay \{[^}]*background: var\(--lk-overlay\)/)
})
