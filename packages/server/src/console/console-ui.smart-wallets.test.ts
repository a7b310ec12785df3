// @vitest-environment happy-dom
import { fireEvent, screen, within } from '@testing-library/react'
import { beforeAll, expect, it } from 'vitest'
import { paymasterSignerAddress } from '../smart-wallets/paymaster-key.ts'
import type { TestInstance } from '../test/instance.ts'
import {
  renderAppSettings,
  setUpConsoleScreens,
  storedSettings,
  typeInto,
} from './console-ui.test-helper.ts'

// The console's "Smart wallets" form (screens/SmartWalletsForm.tsx) in
// happy-dom, its `fetch` answered by a real server in process: the paymaster
// signer created from its button, chains added and removed, the policy saved
// as the server validates it, and a refused value shown as the other forms
// show theirs.
const consoleInstance = setUpConsoleScreens()
let t: TestInstance
const CONTRACT = '0x00000000000000000000000000000000000000Aa'

beforeAll(() => {
  t = consoleInstance()
})

const smartWallets = async () => (await storedSettings(t)).smart_wallets
const type = typeInto
const showForm = () => {
  renderAppSettings(t)
  return screen.findByRole('form', { name: 'Smart wallets' })
}

it('creates the paymaster signer from its button and shows its address', async () => {
  const form = await showForm()
  fireEvent.click(await within(form).findByRole('button', { name: 'Create paymaster signer' }))
  const shown = await within(form).findByText(/^0x[0-9a-fA-F]{40}$/)
  expect(shown.textContent).toBe(await paymasterSignerAddress(t.server.services, t.app.id))
  expect(within(form).queryByRole('button', { name: 'Create paymaster signer' })).toBeNull()
})

it('saves type, chains with each paymaster kind and the policy; removes a chain', async () => {
  const form = await showForm()
  fireEvent.click(within(form).getByLabelText('Smart wallets on (on the chains below)'))
  fireEvent.click(within(form).getByRole('radio', { name: /^simple —/ }))
  fireEvent.click(within(form).getByRole('button', { name: 'Add chain' }))
  type(form, 'Chain 1 id', '8453')
  type(form, 'Chain 1 bundler URL', 'https://bundler.example/8453')
  type(form, 'Chain 1 paymaster', 'server')
  type(form, 'Chain 1 VerifyingPaymaster address', CONTRACT)
  fireEvent.click(within(form).getByRole('button', { name: 'Add chain' }))
  type(form, 'Chain 2 id', '10')
  type(form, 'Chain 2 bundler URL', 'https://bundler.example/10')
  type(form, 'Chain 2 paymaster', 'erc7677')
  type(form, 'Chain 2 paymaster URL', 'https://pm.example/10')
  type(form, /^Chain 2 paymaster context/, '{"sponsorshipPolicyId": "sp_1"}')
  fireEvent.click(within(form).getByRole('button', { name: 'Add chain' }))
  type(form, 'Chain 3 id', '1')
  type(form, 'Chain 3 bundler URL', 'https://bundler.example/1')
  type(form, /^Contracts sponsored calls/, CONTRACT)
  type(form, /^Operations per user per day/, '5')
  type(form, /^Gas cost per user per day/, '1000000000000000')
  fireEvent.click(within(form).getByRole('button', { name: 'Save smart wallets' }))
  await screen.findByText(/^Saved/)
  expect(await smartWallets()).toEqual({
    enabled: true,
    type: 'simple',
    chains: [
      {
        chain_id: 8453,
        bundler_url: 'https://bundler.example/8453',
        paymaster: { kind: 'server', address: CONTRACT },
      },
      {
        chain_id: 10,
        bundler_url: 'https://bundler.example/10',
        paymaster: {
          kind: 'erc7677',
          url: 'https://pm.example/10',
          context: { sponsorshipPolicyId: 'sp_1' },
        },
      },
      { chain_id: 1, bundler_url: 'https://bundler.example/1' },
    ],
    sponsorship_policy: {
      contracts: [CONTRACT.toLowerCase()],
      max_operations_per_user_per_day: 5,
      max_gas_cost_per_user_per_day: '1000000000000000',
    },
  })

  const again = await screen.findByRole('form', { name: 'Smart wallets' })
  expect((within(again).getByLabelText('Chain 2 paymaster URL') as HTMLInputElement).value).toBe(
    'https://pm.example/10',
  )
  fireEvent.click(within(again).getByRole('button', { name: 'Remove chain 2' }))
  fireEvent.click(within(again).getByRole('button', { name: 'Save smart wallets' }))
  await screen.findByText(/^Saved/)
  const saved = await smartWallets()
  expect(saved.chains.map((chain: { chain_id: number }) => chain.chain_id)).toEqual([8453, 1])
})

it('shows the server`s message for a refused value, and a context that is not JSON', async () => {
  const before = await smartWallets()
  const form = await showForm()
  type(form, 'Chain 1 bundler URL', 'not a url')
  fireEvent.click(within(form).getByRole('button', { name: 'Save smart wallets' }))
  expect((await within(form).findByRole('alert')).textContent).toBe(
    'smart_wallets: chains[0].bundler_url must be an http(s) URL',
  )
  type(form, 'Chain 1 bundler URL', 'https://bundler.example/8453')
  type(form, 'Chain 1 paymaster', 'erc7677')
  type(form, 'Chain 1 paymaster URL', 'https://pm.example/8453')
  type(form, /^Chain 1 paymaster context/, '{sponsorshipPolicyId: sp_1}')
  fireEvent.click(within(form).getByRole('button', { name: 'Save smart wallets' }))
  expect((await within(form).findByRole('alert')).textContent).toBe(
    'smart_wallets: chains[0].paymaster.context is not valid JSON',
  )
  expect(await smartWallets()).toEqual(before)
})
