import { afterAll, beforeAll, expect, it } from 'vitest'
import { getAppProviderCredentials } from '../apps/credentials.ts'
import { runCli } from '../cli.ts'
import { SecretBox } from '../crypto/secrets.ts'
import { createCdpKey } from '../test/fake-coinbase.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// `latchkey apps credentials set ID moonpay|coinbase-onramp` (docs/funding.md
// "Operator setup"): secrets from the environment variable a flag names,
// sealed, never printed.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t?.close())

const MASTER_KEY = Buffer.alloc(32, 7)
const store = () => ({ db: t.db, secrets: new SecretBox(MASTER_KEY) })
const run = async (argv: string[], env: Record<string, string> = {}) => {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(['apps', 'credentials', 'set', t.app.id, ...argv], {
    db: t.db,
    env: { LATCHKEY_MASTER_KEY: MASTER_KEY.toString('hex'), ...env },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

it('moonpay: the secret key from --secret-key-env', async () => {
  const secret = 'sk_live_cliSecret0123'
  const res = await run(['moonpay', '--secret-key-env', 'MP_SECRET'], { MP_SECRET: secret })
  expect(res).toMatchObject({ code: 0, err: '' })
  expect(res.out).toContain(`Set the moonpay credentials of app ${t.app.id}`)
  expect(res.out).not.toContain(secret)
  expect(await getAppProviderCredentials(store(), t.app.id, 'moonpay')).toEqual({
    provider: 'moonpay',
    secret_key: secret,
  })
  expect((await run(['moonpay'])).err).toContain('moonpay needs --secret-key-env VAR')
  expect((await run(['moonpay', '--secret-key-env', 'UNSET'])).err).toContain(
    'UNSET is empty or not set',
  )
})

it('coinbase-onramp: a PEM key kept on one line (\\n escapes) or an Ed25519 key', async () => {
  const ec = createCdpKey('ec')
  const oneLine = ec.secret.trim().replace(/\n/g, '\\n')
  const res = await run(
    ['coinbase-onramp', '--api-key-name', ec.name, '--api-key-secret-env', 'CDP_SECRET'],
    { CDP_SECRET: oneLine },
  )
  expect(res).toMatchObject({ code: 0, err: '' })
  expect(res.out).not.toContain(oneLine.slice(40, 80))
  expect(await getAppProviderCredentials(store(), t.app.id, 'coinbase-onramp')).toEqual({
    provider: 'coinbase-onramp',
    api_key_name: ec.name,
    api_key_secret: ec.secret.trim(),
  })
  const ed = createCdpKey('ed25519', 'a1b2c3d4-0000-4000-8000-000000000000')
  const edRes = await run(
    ['coinbase-onramp', '--api-key-name', ed.name, '--api-key-secret-env', 'CDP_SECRET'],
    { CDP_SECRET: ed.secret },
  )
  expect(edRes.code).toBe(0)
  expect(
    (await getAppProviderCredentials(store(), t.app.id, 'coinbase-onramp'))?.api_key_secret,
  ).toBe(ed.secret)
  expect((await run(['coinbase-onramp', '--api-key-name', ed.name])).err).toContain(
    'coinbase-onramp needs --api-key-name NAME and --api-key-secret-env VAR',
  )
})
