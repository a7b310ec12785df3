// A minimal host app: the provider and one login button.
import { LatchkeyProvider, useLatchkey } from '@latchkey/react'
import { createRoot } from 'react-dom/client'

function LoginButton() {
  const { login } = useLatchkey()
  return (
    <button type="button" onClick={() => login()}>
      Log in
    </button>
  )
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <LatchkeyProvider appId="benchappaaaaaaaaaaaaaaaaa" apiUrl="http://localhost:8787">
    <LoginButton />
  </LatchkeyProvider>,
)
