import type { SmartWalletConfig } from '@latchkey/protocol/schemas'
import { sessionRoutes } from '@latchkey/protocol/session-routes'
import { createFakeServer } from '../../../enclave/src/page/fake-server.test-helper.ts'
import {
  createHarness,
  APP_ID as ENCLAVE_APP_ID,
} from '../../../enclave/src/page/harness.test-helper.ts'
import { createLatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { createMemoryStorage } from '../storage.ts'
import { userWith, walletWire } from '../test/enclave-client.ts'
import { authResponse, createFakeFetch, fakeJwt, json } from '../test/fake-server.ts'
import { embeddedWallets } from '../wallets/createWallet.ts'
import { attachEnclave } from '../wallets/enclave.ts'

// A logged-in core client whose enclave is the real enclave page (its
// request handlers behind its message channel, packages/enclave) holding a
// new embedded wallet; the enclave keeps its shares at the enclave's own test
// server. Core's HTTP answers only the app config (`smart_wallet_config`).

/** What crossed the bridge: each request the host sent, and each answer it got. */
export interface BridgeTraffic {
  requests: { event: string; data: Record<string, unknown> }[]
  answers: { event: string; data?: unknown; error?: unknown }[]
}

export async function embeddedWalletClient(smartWalletConfig: SmartWalletConfig) {
  const fake = createFakeFetch((call) =>
    call.url.endsWith(sessionRoutes.appConfig(ENCLAVE_APP_ID))
      ? json(200, { id: ENCLAVE_APP_ID, smart_wallet_config: smartWalletConfig })
      : json(500, {}),
  )
  const client = createLatchkeyClient({
    appId: ENCLAVE_APP_ID,
    apiUrl: 'http://localhost:8787',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
  })
  // A session of 'user-alice', as the enclave's test server reads bearer tokens.
  const exp = Math.floor(Date.now() / 1000) + 3600
  const token = fakeJwt({ sub: 'user-alice', sid: 'session-1', aud: ENCLAVE_APP_ID, exp })
  const login = (user: ReturnType<typeof userWith>) =>
    client.session.applyAuthResponse({ ...authResponse({ exp, aud: ENCLAVE_APP_ID }), token, user })
  login(userWith())
  const enclave = createHarness({
    fetch: createFakeServer({ appId: ENCLAVE_APP_ID }).fetch,
    ancestorOrigins: ['https://app.example.com'],
  })
  const created = await enclave.request('latchkey:wallets:create', {
    access_token: token,
    chain_types: ['ethereum'],
    recovery: { method: 'latchkey' },
  })
  if (created.message.error) throw new Error(JSON.stringify(created.message.error))
  const [created0] = (created.message.data as { user: { linked_accounts: { address: string }[] } })
    .user.linked_accounts
  const address = created0?.address as `0x${string}`
  login(userWith(walletWire(address, 'ethereum', 0, address)))
  const traffic: BridgeTraffic = { requests: [], answers: [] }
  attachEnclave(client, {
    origin: 'https://latchkey.test',
    async request<T>(event: string, data: unknown) {
      traffic.requests.push({ event, data: data as Record<string, unknown> })
      const answer = await enclave.request(event, data)
      traffic.answers.push({ event, data: answer.message.data, error: answer.message.error })
      const error = answer.message.error
      if (error) throw new LatchkeyError(error.code as never, error.message)
      return answer.message.data as T
    },
    keyThumbprint: async () => null,
    destroy() {},
  })
  const wallet = embeddedWallets(client.session.getState().user, 'ethereum')[0]
  if (!wallet) throw new Error('the enclave created no Ethereum wallet')
  return { client, wallet, traffic, enclave, fetchCalls: fake.calls }
}
