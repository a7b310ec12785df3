import { expect, it } from 'vitest'
import * as entry from './index.ts'

// The public surface of @latchkey/react: a change here is an API change.
it('exports exactly these names', () => {
  expect(Object.keys(entry).sort()).toEqual([
    'LatchkeyError',
    'LatchkeyLoginPanel',
    'LatchkeyProvider',
    'ProviderRpcError',
    'useCaptcha',
    'useConnectWallet',
    'useCreateWallet',
    'useCustomAuth',
    'useDeleteAccount',
    'useExportWallet',
    'useFarcasterSigner',
    'useFundWallet',
    'useGuestAccount',
    'useImportWallet',
    'useKeyActivity',
    'useLatchkey',
    'useLinkAccount',
    'useLogin',
    'useLoginWithEmail',
    'useLoginWithOAuth',
    'useLoginWithPasskey',
    'useLoginWithSms',
    'useLoginWithTelegram',
    'useManagePasskeys',
    'useMfa',
    'useMfaEnrollment',
    'useRecoverWallet',
    'useSendTransaction',
    'useSetWalletPassword',
    'useSetWalletRecovery',
    'useSignMessage',
    'useSignSolanaMessage',
    'useSignTransaction',
    'useSignTypedData',
    'useSolanaWallets',
    'useWallets',
  ])
})
