import { useCallback, useState } from 'react'

/** Where a cursor-paged list is: the cursor of the page shown ('' for the first), and how to move. */
export interface Pages {
  cursor: string
  /** 1-based. */
  number: number
  next: (cursor: string) => void
  previous: () => void
  first: () => void
}

/** Cursor paging for the console's lists: the cursors of the pages before, to go back. */
export function usePages(): Pages {
  const [cursors, setCursors] = useState<string[]>([''])
  const next = useCallback((cursor: string) => setCursors((list) => [...list, cursor]), [])
  const previous = useCallback(
    () => setCursors((list) => (list.length > 1 ? list.slice(0, -1) : list)),
    [],
  )
  const first = useCallback(() => setCursors(['']), [])
  return { cursor: cursors.at(-1) ?? '', number: cursors.length, next, previous, first }
}
