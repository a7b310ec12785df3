import { join } from 'node:path'

// The apps of the app-backend browser tests (global-setup.ts): delegated
// actions (e2e/delegated-actions.test.ts) and cross-app (e2e/cross-app.test.ts).

const DELEGATION_APP_ID = 'e2edelegationaaaaaaaaaaaa'
const CROSS_APP_PROVIDER_ID = 'e2excprovideraaaaaaaaaaaa'
const CROSS_APP_REQUESTER_ID = 'e2excrequesteraaaaaaaaaaa'

interface AppInput {
  id: string
  name: string
  origins: string[]
  settings: Record<string, unknown>
}

export async function ensureDelegationAndCrossApps(options: {
  ensureApp: (app: AppInput) => Promise<{ secret?: string | null }>
  importSource: (id: string) => Promise<unknown>
  db: Parameters<
    typeof import('../packages/server/src/delegation/policy.ts').setDelegationPolicy
  >[0]
  root: string
  demoUrl: string
}) {
  const { ensureApp, importSource, db, root, demoUrl } = options
  // Delegated actions (e2e/delegated-actions.test.ts): its backend signs personal_sign under its
  // secret (the creation secret); a policy allows that method only (no policy refuses everything).
  const delegation = await ensureApp({
    id: DELEGATION_APP_ID,
    name: 'E2E Delegation',
    origins: [demoUrl],
    settings: { login_methods: { email: true } },
  })
  const { setDelegationPolicy } = (await importSource(
    join(root, 'packages/server/src/delegation/policy.ts'),
  )) as typeof import('../packages/server/src/delegation/policy.ts')
  await setDelegationPolicy(
    db,
    DELEGATION_APP_ID,
    {
      chains: null,
      contracts: null,
      methods: ['personal_sign'],
      maxValuePerTx: null,
      maxValuePerDay: null,
    },
    Date.now(),
  )

  // Cross-app (e2e/cross-app.test.ts): the provider's page is the demo on 127.0.0.1, the
  // requester the demo on localhost (another origin); the provider shares with it only.
  const requesterOrigin = demoUrl.replace('127.0.0.1', 'localhost')
  await ensureApp({
    id: CROSS_APP_REQUESTER_ID,
    name: 'E2E Requester',
    origins: [requesterOrigin],
    settings: { login_methods: { email: true } },
  })
  await ensureApp({
    id: CROSS_APP_PROVIDER_ID,
    name: 'E2E Provider',
    origins: [demoUrl],
    settings: {
      login_methods: { email: true },
      cross_app: {
        enabled: true,
        allowed_requester_app_ids: [CROSS_APP_REQUESTER_ID],
        custom_api_url: `${demoUrl}/?appId=${CROSS_APP_PROVIDER_ID}`,
      },
    },
  })
  return {
    delegation: { appId: DELEGATION_APP_ID, appSecret: delegation.secret ?? '' },
    crossApp: { providerAppId: CROSS_APP_PROVIDER_ID, requesterAppId: CROSS_APP_REQUESTER_ID },
  }
}
