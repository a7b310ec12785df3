import { LatchkeyError } from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import type { CreateWalletsRequest } from '../../create-on-login.ts'
import type { LatchkeyInstance } from '../../store.ts'
import { WalletCreationScreen } from './WalletCreationScreen.tsx'

export interface CreateWalletsScreenProps {
  instance: LatchkeyInstance
  request: CreateWalletsRequest
  onClose(): void
}

/**
 * The post-login wallet step opened for a login the modal did not make (a
 * guest's, `createWalletsAfterLogin`): the same screens as after a modal
 * login. A failure (the user has been logged out) shows its message and
 * Close, and the call rejects with it; closing the recovery choice rejects
 * with SET_RECOVERY_EXITED.
 */
export function CreateWalletsScreen({ instance, request, onClose }: CreateWalletsScreenProps) {
  const exitWith = (code: ErrorCode | null) =>
    instance.setWalletScreenExit(request, code ? new LatchkeyError(code) : null)
  return (
    <WalletCreationScreen
      client={instance.client}
      chains={request.chains}
      isNewUser={request.isNewUser}
      appName={request.appName}
      userOwnedRecovery={request.userOwnedRecovery}
      onDone={() => {
        instance.completeWalletScreen(request, undefined)
        onClose()
      }}
      onFailed={exitWith}
      onClose={onClose}
      onExitChange={exitWith}
    />
  )
}
