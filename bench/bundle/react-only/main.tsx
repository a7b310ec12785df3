// The same host app without Latchkey: what React alone costs.
import { createRoot } from 'react-dom/client'

createRoot(document.getElementById('root') as HTMLElement).render(
  <button type="button" onClick={() => alert('hi')}>
    Log in
  </button>,
)
