import type { Pages } from '../use-pages.ts'

/** "Previous page" and "Next page" under a cursor-paged list. */
export function PageButtons(props: { pages: Pages; nextCursor: string | null | undefined }) {
  const { pages, nextCursor } = props
  return (
    <nav className="row" aria-label="Pages">
      <button type="button" onClick={pages.previous} disabled={pages.number === 1}>
        Previous page
      </button>
      <span className="muted">Page {pages.number}</span>
      <button
        type="button"
        onClick={() => nextCursor && pages.next(nextCursor)}
        disabled={!nextCursor}
      >
        Next page
      </button>
    </nav>
  )
}
