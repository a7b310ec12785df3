import { CrossAppLogin } from '../cross-app/CrossAppLogin.tsx'
import { outcomeScreen } from '../login-outcome.ts'
import type { StepRenderers } from './context.ts'

/** Cross-app login (docs/cross-app.md): a `latchkey:{appId}` entry of the landing screen. */
export const crossAppSteps: Pick<StepRenderers, 'cross-app'> = {
  'cross-app': (screen, { instance, linking, setScreen, backToLanding }) => (
    <CrossAppLogin
      key={screen.appId}
      client={instance.client}
      appId={screen.appId}
      popup={screen.popup}
      intent={linking ? 'link' : 'login'}
      onDone={({ user, isNewUser, provider }) =>
        setScreen({
          screen: 'success',
          user,
          isNewUser,
          loginMethod: 'cross_app',
          label: provider.name,
        })
      }
      onError={(error) =>
        setScreen(outcomeScreen(error, undefined, linking) ?? { screen: 'error', code: error.code })
      }
      onBack={backToLanding}
    />
  ),
}
