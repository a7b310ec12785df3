import { expect, it } from 'vitest'
import * as entry from './index.ts'

// The public surface of @latchkey/wagmi: a change here is an API change.
it('exports exactly these names', () => {
  expect(Object.keys(entry).sort()).toEqual([
    'LATCHKEY_CONNECTOR_TYPE',
    'LatchkeyWagmiProvider',
    'latchkeyConnector',
    'useSetActiveWallet',
    'useWagmiWallets',
  ])
})
