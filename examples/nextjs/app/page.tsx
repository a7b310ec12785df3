import { LoginButton } from './login-button'
import { getServerSession } from './session'

/** A server component: the session is read and verified on the server, before any script runs. */
export default async function Home() {
  const session = await getServerSession()
  const userId = session.status === 'authenticated' ? session.claims.sub : null
  return (
    <main>
      <h1>Latchkey with Next.js</h1>
      <section data-testid="server-session">
        {session.status === 'authenticated' ? (
          <p>
            The server verified your access token: user{' '}
            <code data-testid="server-user-id">{userId}</code>
          </p>
        ) : session.status === 'maybe' ? (
          <p>The server has no valid access token yet; the browser is restoring your session.</p>
        ) : (
          <p>The server sees no session.</p>
        )}
      </section>
      <LoginButton serverUserId={userId} />
    </main>
  )
}
