import { LatchkeyError } from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { useState } from 'react'
import type { CreateWalletsRequest } from '../../create-on-login.ts'
import type { LatchkeyInstance } from '../../store.ts'
import { ErrorScreen } from './ErrorScreen.tsx'
import { WalletCreationScreen } from './WalletCreationScreen.tsx'

export interface CreateWalletsScreenProps {
  instance: LatchkeyInstance
  request: CreateWalletsRequest
  onClose(): void
}

/**
 * The post-login wallet step opened for a login the modal did not make (a
 * guest's, `createWalletsAfterLogin`): the same screens as after a modal
 * login; a failure (the user has been logged out) shows its error.
 */
export function CreateWalletsScreen({ instance, request, onClose }: CreateWalletsScreenProps) {
  const [failure, setFailure] = useState<ErrorCode | null>(null)
  if (failure) return <ErrorScreen code={failure} onBack={onClose} />
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
      onFailed={(code) => {
        instance.setWalletScreenExit(request, new LatchkeyError(code))
        setFailure(code)
      }}
    />
  )
}
