import { toSafeSmartAccount, toSimpleSmartAccount } from 'permissionless/accounts'
import { type Address, encodeFunctionData, type Hex, parseAbi } from 'viem'
import { entryPoint07Address, toSimple7702SmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type AccountAbstractionChain,
  sharedAccountAbstractionChain,
} from '../test/account-abstraction/index.ts'
import { callTargets } from './call-targets.ts'
import { publicClientOf } from './paymaster.test-helper.ts'

// The contracts policy reads the calls of a user operation as each account
// executes them. The callData here comes from the account implementations
// users have (permissionless SimpleAccount v0.7 and Safe 1.4.1 with its 4337
// module, viem's Simple7702Account), single calls and batches (a Safe batch
// is a delegatecall to MultiSendCallOnly). What cannot be read — another
// selector, a Safe delegatecall elsewhere, a batch with a delegatecall
// inside — is null, which a contracts policy refuses.
let aa: AccountAbstractionChain
const owner = privateKeyToAccount(generatePrivateKey())
const [a, b] = [
  privateKeyToAccount(generatePrivateKey()).address,
  privateKeyToAccount(generatePrivateKey()).address,
]
const calls: Array<{ to: Address; value?: bigint; data?: Hex }> = [
  { to: a, value: 1n },
  { to: b, data: '0x12345678' },
]
let encoders: Record<'simple' | 'safe' | 'simple_7702', (c: typeof calls) => Promise<Hex>>
beforeAll(async () => {
  aa = await sharedAccountAbstractionChain()
  const client = publicClientOf(aa)
  const entryPoint = { address: entryPoint07Address, version: '0.7' as const }
  const simple = await toSimpleSmartAccount({ client, owner, entryPoint })
  const safe = await toSafeSmartAccount({ client, owners: [owner], version: '1.4.1', entryPoint })
  const simple7702 = await toSimple7702SmartAccount({ client, owner })
  encoders = {
    simple: (c) => simple.encodeCalls(c),
    safe: (c) => safe.encodeCalls(c),
    simple_7702: (c) => simple7702.encodeCalls(c),
  }
}, 120_000)
afterAll(() => aa?.stop())

describe.each(['simple', 'safe', 'simple_7702'] as const)('%s', (type) => {
  it('reads a single call and a batch', async () => {
    expect(callTargets(type, await encoders[type]([calls[0] as never]))).toEqual([a.toLowerCase()])
    expect(callTargets(type, await encoders[type](calls))).toEqual([
      a.toLowerCase(),
      b.toLowerCase(),
    ])
  })

  it('cannot read another selector or garbage', async () => {
    expect(callTargets(type, '0xdeadbeef')).toBeNull()
    expect(callTargets(type, `${(await encoders[type](calls)).slice(0, 80)}` as Hex)).toBeNull()
  })
})

it("another account type's encoding is not read", async () => {
  expect(callTargets('simple', await encoders.safe(calls))).toBeNull()
  expect(callTargets('safe', await encoders.simple(calls))).toBeNull()
})

it('a Safe delegatecall outside MultiSend, or inside a MultiSend batch, is not read', () => {
  const module = parseAbi([
    'function executeUserOp(address to, uint256 value, bytes data, uint8 operation)',
  ])
  const delegate = encodeFunctionData({
    abi: module,
    functionName: 'executeUserOp',
    args: [a, 0n, '0x', 1],
  })
  expect(callTargets('safe', delegate)).toBeNull()
  // MultiSend's packed call with operation 1 (delegatecall).
  const inner = `0x01${b.slice(2)}${'00'.repeat(32)}${'00'.repeat(32)}` as Hex
  const multiSend = encodeFunctionData({
    abi: parseAbi(['function multiSend(bytes transactions)']),
    functionName: 'multiSend',
    args: [inner],
  })
  const batch = encodeFunctionData({
    abi: module,
    functionName: 'executeUserOp',
    args: ['0x9641d764fc13c8B624c04430C7356C1C7C8102e2', 0n, multiSend, 1],
  })
  expect(callTargets('safe', batch)).toBeNull()
})
