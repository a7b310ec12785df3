import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail } from './browser.ts'

// Issue 16, item 7c: a visual check of the demo's linked-accounts table. No
// word in its cells is split across lines at 1280 px and 390 px; only
// addresses and ids (`data-wrap="anywhere"`) may wrap anywhere. Screenshots go
// to LATCHKEY_SCREENSHOTS (default: a folder in the system's tmp) to look at.

const { serverUrl, demoUrl } = inject('e2e')
const shots = process.env.LATCHKEY_SCREENSHOTS ?? join(tmpdir(), 'latchkey-e2e-screenshots')

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
  mkdirSync(shots, { recursive: true })
})
afterAll(async () => {
  await browser?.close()
})

interface Layout {
  /** Words drawn on more than one line, with the cell they are in. */
  splitWords: string[]
  /** Cells whose content is wider than the cell. */
  overflowingCells: string[]
  /** The page scrolls sideways. */
  pageOverflows: boolean
  cells: number
}

/** Measures every word of every text node in the table's cells (Range.getClientRects). */
function measure(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const table = document.querySelector('table[aria-labelledby="linked-title"]')
    if (!table) throw new Error('no linked-accounts table')
    const splitWords: string[] = []
    const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement
      if (!parent || parent.closest('[data-wrap="anywhere"], .visually-hidden')) continue
      for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
        const range = document.createRange()
        range.setStart(node, word.index)
        range.setEnd(node, word.index + word[0].length)
        const lines = new Set(
          [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
        )
        if (lines.size > 1)
          splitWords.push(`${word[0]} (in "${parent.closest('td, th')?.textContent}")`)
      }
    }
    // The header row is visually hidden on a phone (each row labels itself there).
    const shown = (cell: HTMLElement) => (cell.closest('thead')?.clientWidth ?? 2) > 1
    const cells = [...table.querySelectorAll<HTMLElement>('td, th')].filter(shown)
    return {
      splitWords,
      overflowingCells: cells
        .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
        .map((cell) => cell.textContent ?? ''),
      pageOverflows: document.documentElement.scrollWidth > window.innerWidth,
      cells: cells.length,
    }
  })
}

describe("the demo's linked-accounts table (issue 16, item 7c)", () => {
  it('splits no word across lines at 1280 px and at 390 px', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const dialog = await logInToDemo(
      page,
      { serverUrl, demoUrl },
      uniqueEmail('linked-accounts-layout'),
    )
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    const table = page.getByRole('table', { name: 'Linked accounts' })
    // Email, the Ethereum wallet and the Solana wallet.
    await expect.poll(() => table.getByRole('row').count()).toBe(4)

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await table.scrollIntoViewIfNeeded()
      await table.screenshot({ path: join(shots, `linked-accounts-${width}.png`) })
      await page.screenshot({
        path: join(shots, `linked-accounts-page-${width}.png`),
        fullPage: true,
      })
      // Still a table with its rows for assistive technology, whatever the layout.
      expect(await table.getByRole('row').count()).toBe(4)
      const layout = await measure(page)
      expect(layout.cells).toBeGreaterThan(8)
      expect(layout.splitWords, `${width} px`).toEqual([])
      expect(layout.overflowingCells, `${width} px`).toEqual([])
      expect(layout.pageOverflows, `${width} px`).toBe(false)
      // The type words stay whole on one line.
      for (const type of ['email', 'wallet']) {
        const pill = table.locator('.type-pill', { hasText: type }).first()
        const lines = await pill.evaluate((el) => el.getClientRects().length)
        expect(lines, `${type} at ${width} px`).toBe(1)
      }
    }
    await context.close()
  })
})
