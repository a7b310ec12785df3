import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'

/** Shown until the session has been checked and the app's configuration has arrived (spec 01 §2). */
export function LoadingScreen() {
  return (
    <ScreenLayout title="Loading">
      <div className="lk-status">
        <Spinner label="Loading" />
      </div>
    </ScreenLayout>
  )
}
