import { expect, it } from 'vitest'
import { newId } from './ids.ts'

it('a row id never starts with "-", so the CLI can take it as an argument', () => {
  // One draw in 64 starts with '-'; 20,000 draws without the redraw would meet ~312.
  const ids = Array.from({ length: 20_000 }, newId)
  expect(ids.filter((id) => id.startsWith('-'))).toEqual([])
  expect(ids.every((id) => /^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/.test(id))).toBe(true)
  expect(new Set(ids).size).toBe(ids.length)
})
