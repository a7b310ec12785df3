import { expect, it } from 'vitest'
import type { OtherCredentialProvider } from '../../console/src/api.ts'
import {
  CREDENTIAL_SPECS,
  credentialInputOf,
  credentialStatusOf,
  credentialValuesOf,
} from '../../console/src/credential-fields.ts'
import { credentialsFromFlags } from '../cli/credential-flags.ts'
import { credentialBody } from './credential-input.ts'

// The console's credential blocks (console/src/credential-fields.ts): the
// fields of each provider are the CLI's flags (cli/credential-flags.ts), the
// body they make is what the route takes (credential-input.ts), a secret is
// sent only when typed, and the stored public half fills the block again.

const typed: Record<OtherCredentialProvider, Record<string, string>> = {
  'google-drive': { client_id: ' drive.apps.example ', client_secret: 'GOCSPX-x' },
  icloud: { container_id: 'iCloud.com.example.app', environment: 'development', api_token: 't0k' },
  turnstile: { secret_key: 'turnstile-secret' },
  moonpay: { secret_key: 'sk_test_abc' },
  'coinbase-onramp': { api_key_name: 'key-1', api_key_secret: 'pem' },
  'farcaster-signer': { request_fid: '42', custody_key: '0xabc' },
}
/** The CLI flags that set the same provider (secrets through one variable, SECRET). */
const flags: Record<OtherCredentialProvider, Record<string, string>> = {
  'google-drive': { 'client-id': 'drive.apps.example', 'client-secret-env': 'SECRET' },
  icloud: {
    'container-id': 'iCloud.com.example.app',
    environment: 'development',
    'api-token-env': 'SECRET',
  },
  turnstile: { 'secret-key-env': 'SECRET' },
  moonpay: { 'secret-key-env': 'SECRET' },
  'coinbase-onramp': { 'api-key-name': 'key-1', 'api-key-secret-env': 'SECRET' },
  'farcaster-signer': { 'request-fid': '42', 'custody-key-env': 'SECRET' },
}

it('each block sends the fields the CLI sets, in a body the route takes', () => {
  for (const [provider, spec] of Object.entries(CREDENTIAL_SPECS)) {
    const p = provider as OtherCredentialProvider
    const input = credentialInputOf(spec, typed[p])
    expect(credentialBody.safeParse(input).success, provider).toBe(true)
    const secretField = spec.fields.find((f) => f.kind === 'secret' || f.kind === 'pem')?.name ?? ''
    const cli = credentialsFromFlags(p, flags[p], { SECRET: typed[p][secretField] })
    expect(Object.keys(input).sort(), provider).toEqual(Object.keys(cli).sort())
  }
})

it('a secret is sent only when typed; public fields trimmed', () => {
  const spec = CREDENTIAL_SPECS['google-drive']
  expect(
    credentialInputOf(spec, { client_id: ' drive.apps.example ', client_secret: ' ' }),
  ).toEqual({ provider: 'google-drive', client_id: 'drive.apps.example' })
})

it('the stored public half fills the block, secrets empty; the status names it', () => {
  const spec = CREDENTIAL_SPECS.icloud
  const stored = {
    provider: 'icloud',
    container_id: 'iCloud.com.example.app',
    environment: 'development',
  }
  expect(credentialValuesOf(spec, stored)).toEqual({
    container_id: 'iCloud.com.example.app',
    environment: 'development',
    api_token: '',
  })
  expect(credentialValuesOf(spec, undefined).environment).toBe('production')
  expect(credentialStatusOf(spec, stored)).toBe('Set: iCloud.com.example.app, development')
  expect(credentialStatusOf(CREDENTIAL_SPECS.moonpay, { provider: 'moonpay' })).toBe('Set')
  expect(credentialStatusOf(CREDENTIAL_SPECS.moonpay, undefined)).toBe('Not set')
})
