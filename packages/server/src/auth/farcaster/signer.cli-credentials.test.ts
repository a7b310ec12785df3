import { describe, expect, it } from 'vitest'
import { providerCredentialsSchema } from '../../apps/credentials.ts'
import { credentialsFromFlags } from '../../cli/credential-flags.ts'

// `latchkey apps credentials set ID farcaster-signer --request-fid FID --custody-key-env VAR`:
// the custody key comes from the environment, never from argv.

describe('farcaster-signer credentials from the CLI', () => {
  const key = `0x${'12'.repeat(32)}`

  it('reads the custody key from the named environment variable', () => {
    expect(
      credentialsFromFlags(
        'farcaster-signer',
        { 'request-fid': '9152', 'custody-key-env': 'FC_KEY' },
        { FC_KEY: ` ${key}\n` },
      ),
    ).toEqual({ provider: 'farcaster-signer', request_fid: '9152', custody_key: key })
  })

  it('names the missing flags, or the empty variable, never a value', () => {
    expect(credentialsFromFlags('farcaster-signer', { 'request-fid': '1' }, {})).toBe(
      'apps credentials set … farcaster-signer needs --request-fid FID and --custody-key-env VAR',
    )
    expect(
      credentialsFromFlags(
        'farcaster-signer',
        { 'request-fid': '1', 'custody-key-env': 'NOPE' },
        {},
      ),
    ).toBe('The environment variable NOPE is empty or not set')
  })

  it('accepts a private key or a 12–24 word mnemonic, and refuses anything else', () => {
    const parse = (custody_key: string, request_fid = '9152') =>
      providerCredentialsSchema.safeParse({
        provider: 'farcaster-signer',
        request_fid,
        custody_key,
      }).success
    expect(parse(key)).toBe(true)
    expect(parse('test test test test test test test test test test test junk')).toBe(true)
    expect(parse('0x1234')).toBe(false)
    expect(parse('just some words')).toBe(false)
    expect(parse(key, '0')).toBe(false)
    expect(parse(key, 'abc')).toBe(false)
  })
})
