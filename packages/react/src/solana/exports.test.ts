import { expect, it } from 'vitest'
import * as entry from '../solana.ts'

// The public surface of @latchkey/react/solana: a change here is an API change.
it('exports exactly these names', () => {
  expect(Object.keys(entry).sort()).toEqual([
    'useSendTransaction',
    'useSignAndSendTransaction',
    'useSignTransaction',
  ])
})
