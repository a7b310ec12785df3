// @vitest-environment node
import { bytesToHex, type Hex, verifyMessage, verifyTypedData } from 'viem'
import { recoverAuthorizationAddress } from 'viem/utils'
import { describe, expect, it } from 'vitest'
import { SIMPLE_7702_ACCOUNT } from '../../../enclave/src/page/sign.ts'
import { embeddedWalletClient } from './embedded.test-helper.ts'
import { toEmbeddedOwner } from './embeddedOwner.ts'

// The smart wallet's owner is the embedded wallet: every signature it makes
// comes from the enclave, and the host page sees signatures only — no key,
// no share, and no way to have a bare hash signed.

const config = { type: 'safe' as const, version: '1.4.1', chains: [] }

/** A Safe-style EIP-712 payload: uint256 fields are bigints, as permissionless passes them. */
const typedData = {
  domain: { chainId: 31337, verifyingContract: '0x75cf11467937ce3F2f357CE24ffc3DBF8fD5c226' },
  types: {
    SafeOp: [
      { name: 'safe', type: 'address' },
      { name: 'nonce', type: 'uint256' },
      { name: 'callData', type: 'bytes' },
    ],
  },
  primaryType: 'SafeOp',
  message: {
    safe: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    nonce: 2n ** 70n,
    callData: '0x1234',
  },
} as const

describe('the embedded owner: the key stays in the enclave, the host sees signatures only', () => {
  it('signs messages, typed data and EIP-7702 authorizations in the enclave', async () => {
    const { client, wallet, traffic, enclave } = await embeddedWalletClient(config)
    const owner = toEmbeddedOwner(client, wallet)
    const address = wallet.address as Hex
    expect(owner.address.toLowerCase()).toBe(address.toLowerCase())

    const text = await owner.signMessage({ message: 'Sign in to Latchkey' })
    expect(await verifyMessage({ address, message: 'Sign in to Latchkey', signature: text })).toBe(
      true,
    )
    const raw = `0x${'ab'.repeat(32)}` as Hex // a user operation hash: signed as EIP-191
    const rawSignature = await owner.signMessage({ message: { raw } })
    expect(await verifyMessage({ address, message: { raw }, signature: rawSignature })).toBe(true)
    const typed = await owner.signTypedData(typedData)
    expect(await verifyTypedData({ ...typedData, address, signature: typed })).toBe(true)
    if (!owner.signAuthorization) throw new Error('the owner cannot sign authorizations')
    const authorization = await owner.signAuthorization({
      chainId: 31337,
      address: SIMPLE_7702_ACCOUNT,
      nonce: 0,
    })
    expect(authorization).toMatchObject({ chainId: 31337, address: SIMPLE_7702_ACCOUNT, nonce: 0 })
    expect(await recoverAuthorizationAddress({ authorization })).toBe(owner.address)

    // What the host got back: the wallet is ready, then one 65-byte signature per request.
    const signed = traffic.answers.filter((a) => a.event === 'latchkey:wallets:rpc')
    expect(signed).toHaveLength(4)
    for (const answer of signed)
      expect(answer.data).toEqual({ result: expect.stringMatching(/^0x[0-9a-f]{130}$/) })
    const methods = traffic.requests
      .filter((r) => r.event === 'latchkey:wallets:rpc')
      .map((r) => (r.data.request as { method: string }).method)
    expect(methods).toEqual([
      'personal_sign',
      'personal_sign',
      'eth_signTypedData_v4',
      'eth_signAuthorization',
    ])
    // The device share the enclave keeps never crossed to the host.
    const [record] = [...enclave.store.records.values()]
    if (!record) throw new Error('the enclave keeps no device share')
    const seen = JSON.stringify(traffic)
    expect(seen.toLowerCase()).not.toContain(bytesToHex(record.deviceShare).slice(2))
    expect(seen).not.toContain(Buffer.from(record.deviceShare).toString('base64url'))
  })

  it('has no raw-hash signing, and signs no EOA transaction', async () => {
    const { client, wallet, traffic } = await embeddedWalletClient(config)
    const owner = toEmbeddedOwner(client, wallet)
    expect(owner.sign).toBeUndefined()
    await expect(
      owner.signTransaction({ to: wallet.address as Hex, value: 1n, chainId: 31337 }),
    ).rejects.toMatchObject({ code: 'UNSUPPORTED_METHOD' })
    expect(traffic.requests).toEqual([])
  })
})
