import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Listening, listen, sendJson } from '../../test/fakes/http.ts'
import { createRelayClient } from './relay.ts'
import {
  type FakeFarcasterRelay,
  signInWithFarcasterApp,
  startFakeFarcasterRelay,
} from './testing.ts'

/* The relay adapter against the relay's HTTP API (the fake), and against a relay misbehaving. */

let relay: FakeFarcasterRelay
let broken: Listening
let answer: (res: Parameters<Parameters<typeof listen>[0]>[1]) => void
beforeAll(async () => {
  relay = await startFakeFarcasterRelay()
  broken = await listen((_req, res) => answer(res))
})
afterAll(async () => {
  await relay?.close()
  await broken?.close()
})

/** A FarcasterRelayError whose message matches (and whose other fields do, when given). */
const relayError = (message: RegExp, more: Record<string, unknown> = {}) =>
  expect.objectContaining({
    name: 'FarcasterRelayError',
    message: expect.stringMatching(message),
    ...more,
  })

const params = { siweUri: 'https://app.test', domain: 'app.test', nonce: 'abcdef0123456789' }

describe('farcaster relay client', () => {
  it('opens a channel, reads it pending, then completed once, then gone', async () => {
    const client = createRelayClient(`${relay.url}/`)
    const channel = await client.createChannel({ ...params, acceptAuthAddress: false })
    expect(channel).toMatchObject({
      nonce: params.nonce,
      url: expect.stringContaining(channel.channelToken),
    })
    expect(await client.channelStatus(channel.channelToken)).toEqual({ state: 'pending' })
    const account = privateKeyToAccount(generatePrivateKey())
    const signed = await signInWithFarcasterApp({
      relayUrl: relay.url,
      channelToken: channel.channelToken,
      account,
      fid: 7,
      profile: { username: 'seven' },
    })
    expect(await client.channelStatus(channel.channelToken)).toMatchObject({
      state: 'completed',
      message: signed.message,
      signature: signed.signature,
      fid: 7,
      username: 'seven',
    })
    expect(await client.channelStatus(channel.channelToken)).toEqual({ state: 'gone' })
  })

  it('throws FarcasterRelayError for a refusal, an unexpected answer, or no answer in time', async () => {
    // The default timeout: each of these fails for the reason it tests, however slow the machine.
    const client = createRelayClient(broken.url)
    answer = (res) => sendJson(res, 500, { error: 'boom' })
    await expect(client.createChannel(params)).rejects.toThrow(
      relayError(/refused the channel \(500\)/),
    )
    await expect(client.channelStatus('t')).rejects.toThrow(relayError(/status failed \(500\)/))
    answer = (res) => sendJson(res, 201, { hello: 'world' })
    await expect(client.createChannel(params)).rejects.toThrow(relayError(/unexpected channel/))
    answer = (res) => sendJson(res, 200, { state: 'completed' })
    await expect(client.channelStatus('t')).rejects.toThrow(relayError(/unexpected status/))
    // A relay that never answers: the call gives up at its timeout (1 ms here, so no test waits).
    answer = () => {}
    const impatient = createRelayClient(broken.url, { timeoutMs: 1 })
    await expect(impatient.createChannel(params)).rejects.toThrow(
      relayError(/unreachable/, { cause: expect.objectContaining({ name: 'TimeoutError' }) }),
    )
    const down = createRelayClient('http://127.0.0.1:1')
    await expect(down.createChannel(params)).rejects.toThrow(relayError(/unreachable/))
  })
})
