import { LatchkeyError } from '@latchkey/core'
import { CrossAppLogin } from '../cross-app/CrossAppLogin.tsx'
import { errorScreen, outcomeScreen } from '../login-outcome.ts'
import type { StepRenderers } from './context.ts'

/**
 * Cross-app login (docs/cross-app.md): a `latchkey:{appId}` entry of the
 * landing screen, or the first screen of `loginWithCrossAppAccount`'s flow
 * (`loginOptions.crossApp`, no Back: the hook asked for this provider). Either
 * way success goes on to the flow's success screen and post-login steps, and
 * every failure is a login event (the hook's promise settles on the close).
 */
export const crossAppSteps: Pick<StepRenderers, 'cross-app'> = {
  'cross-app': (screen, { instance, ui, loginOptions, linking, setScreen, backToLanding }) => (
    <CrossAppLogin
      key={screen.appId}
      client={instance.client}
      appId={screen.appId}
      popup={screen.popup}
      intent={linking ? 'link' : 'login'}
      open={ui.open}
      onDone={({ user, isNewUser, provider }) =>
        setScreen({
          screen: 'success',
          user,
          isNewUser,
          loginMethod: 'cross_app',
          label: provider.name,
        })
      }
      onError={(error) => {
        const next = outcomeScreen(error, undefined, linking) ?? errorScreen(error)
        // As the flow's `report`: a transfer offer is a question, not a failure.
        if (next.screen !== 'account-transfer')
          instance.emitLoginEvent({ type: 'error', code: error.code, error })
        setScreen(next)
      }}
      onFailure={(error, message) =>
        instance.emitLoginEvent({
          type: 'error',
          code: error.code,
          error: new LatchkeyError(error.code, message, { cause: error }),
        })
      }
      onBack={loginOptions.crossApp ? undefined : backToLanding}
    />
  ),
}
