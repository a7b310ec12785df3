import { keccak256, serializeErc6492Signature, toBytes } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { DEFAULT_SIWE_CHAIN_IDS } from './schema.ts'
import {
  failureReason,
  postSiwe,
  siweMessage,
  siweNonce,
  siweSignIn,
  WALLET_APP_SETTINGS,
} from './testing.ts'

// Security bar 19 (EIP-4361): the chain id is checked against the app's
// chains; EOA signatures are verified per ERC-191 (contract accounts per
// ERC-1271 / ERC-6492: siwe.erc1271.test.ts, siwe.erc6492.test.ts).
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: WALLET_APP_SETTINGS })
})
afterAll(() => t.close())

const newAccount = () => privateKeyToAccount(generatePrivateKey())

describe('SIWE chain id', () => {
  it('accepts the default chains when the app sets none', async () => {
    expect(DEFAULT_SIWE_CHAIN_IDS).toEqual(expect.arrayContaining([1, 10, 8453, 42161, 31337]))
    for (const chainId of [1, 8453, 11155111]) {
      const res = await siweSignIn(t, newAccount(), { fields: { chainId } })
      expect(res.status).toBe(200)
    }
  })

  it("refuses a chain outside the app's chains with 'Chain ID {id} is not supported'", async () => {
    const res = await siweSignIn(t, newAccount(), { fields: { chainId: 999 } })
    expect(res).toMatchObject({
      status: 400,
      body: {
        code: 'UNSUPPORTED_CHAIN',
        message: 'Chain ID 999 is not supported by this app.',
        details: { id: 999 },
      },
    })
    const baseOnly = await t.createApp({ ...WALLET_APP_SETTINGS, chains: [8453] })
    const mainnet = await siweSignIn(t, newAccount(), { appId: baseOnly.id })
    expect(mainnet.body).toMatchObject({ code: 'UNSUPPORTED_CHAIN', details: { id: 1 } })
    const base = await siweSignIn(t, newAccount(), {
      appId: baseOnly.id,
      fields: { chainId: 8453 },
    })
    expect(base.status).toBe(200)
  })

  it("refuses a request chain_id other than the message's", async () => {
    const res = await siweSignIn(t, newAccount(), { body: { chain_id: 'eip155:8453' } })
    expect(failureReason(res)).toBe('chain_id_mismatch')
    const same = await siweSignIn(t, newAccount(), { body: { chain_id: 'eip155:1' } })
    expect(same.status).toBe(200)
  })

  it('verifies EOAs per ERC-191: a signature of the bare hash fails', async () => {
    const account = newAccount()
    const nonce = await siweNonce(t, account.address)
    const message = siweMessage(t, account.address, nonce)
    const bare = await account.sign({ hash: keccak256(toBytes(message)) })
    expect(failureReason(await postSiwe(t, { message, signature: bare }))).toBe('invalid_signature')
    const good = await account.signMessage({ message })
    const tampered = `${good.slice(0, 10)}${good[10] === '0' ? '1' : '0'}${good.slice(11)}`
    expect(failureReason(await postSiwe(t, { message, signature: tampered }))).toBe(
      'invalid_signature',
    )
  })

  it('needs an RPC endpoint for a smart-account signature', async () => {
    const account = newAccount()
    const nonce = await siweNonce(t, account.address)
    const message = siweMessage(t, account.address, nonce)
    const wrapped = serializeErc6492Signature({
      address: newAccount().address,
      data: '0xdeadbeef',
      signature: await account.signMessage({ message }),
    })
    expect(failureReason(await postSiwe(t, { message, signature: wrapped }))).toBe('rpc_required')
  })
})
