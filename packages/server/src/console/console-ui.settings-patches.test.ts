import { expect, it } from 'vitest'
import { chainsOf, entriesOf, moreFieldsOf, morePatchOf } from '../../console/src/more-settings.ts'
import { pathOf, type Route, routeFromPath } from '../../console/src/route.ts'

// The console page's pure parts: the "More settings" form sends only the
// settings whose fields changed, keeping the rest of each object, and every
// screen has an address that leads back to it.

const settings = {
  allowlist: { enabled: true, entries: [{ type: 'email', value: 'a@b.co' }] },
  chains: [1],
  embedded_wallet_config: { create_on_login: { ethereum: 'all-users' } },
  funding: { options: [{ method: 'card', provider: 'moonpay' }], default_recommended_amount: '1' },
  captcha_site_key: '0x4AAAAAAA',
}

it('leaves every setting alone when no field changed', () => {
  expect(morePatchOf(moreFieldsOf(settings), settings)).toEqual({})
  expect(morePatchOf(moreFieldsOf({}), {})).toEqual({})
})

it('patches only what changed, keeping the other keys of the objects it touches', () => {
  const fields = moreFieldsOf(settings)
  expect(fields.allowlistEntries).toBe('email a@b.co')
  const patch = morePatchOf(
    {
      ...fields,
      allowlistEntries: 'email a@b.co\n  email_domain   @corp.example ',
      recoveryOptions: ['icloud'],
      fundingAmount: '',
      captchaSiteKey: ' ',
    },
    settings,
  )
  expect(patch).toEqual({
    allowlist: {
      enabled: true,
      entries: [
        { type: 'email', value: 'a@b.co' },
        { type: 'email_domain', value: '@corp.example' },
      ],
    },
    embedded_wallet_config: {
      create_on_login: { ethereum: 'all-users' },
      require_user_owned_recovery_on_create: false,
      user_owned_recovery_options: ['icloud'],
    },
    funding: {
      options: [{ method: 'card', provider: 'moonpay' }],
      enabled: true,
      default_recommended_asset: 'native-currency',
      cross_chain_bridging_enabled: false,
    },
    captcha_site_key: null,
  })
  expect(morePatchOf({ ...fields, chains: '' }, settings)).toEqual({ chains: null })
})

it('writes funding options in their order and the MoonPay key; empty fields remove them', () => {
  const fields = moreFieldsOf(settings)
  expect(fields.fundingOptions).toBe('card moonpay')
  const patch = morePatchOf(
    {
      ...fields,
      fundingOptions: 'wallets\ncard coinbase\nexchange coinbase',
      moonpayKey: ' pk_test_1 ',
      moonpaySandbox: true,
    },
    settings,
  )
  expect(patch.funding).toMatchObject({
    options: [
      { method: 'wallets', provider: null },
      { method: 'card', provider: 'coinbase' },
      { method: 'exchange', provider: 'coinbase' },
    ],
    moonpay: { publishable_key: 'pk_test_1', sandbox: true },
    default_recommended_amount: '1',
  })
  const cleared = morePatchOf({ ...fields, fundingOptions: ' ' }, settings).funding
  expect(cleared).not.toHaveProperty('options')
  expect(cleared).not.toHaveProperty('moonpay')
})

it('passes what it cannot read on to the server, which refuses it by name', () => {
  expect(chainsOf('1, 8453 x10')).toEqual([1, 8453, 'x10'])
  expect(entriesOf('fax\n\nphone +1 555 0100')).toEqual([
    { type: 'fax', value: '' },
    { type: 'phone', value: '+1 555 0100' },
  ])
})

it('gives every screen an address that leads back to it', () => {
  const routes: Route[] = [
    { screen: 'apps' },
    { screen: 'app', appId: 'a1' },
    { screen: 'users', appId: 'a1' },
    { screen: 'user', appId: 'a1', userId: 'did:latchkey:x/y' },
    { screen: 'events', appId: 'a1' },
    { screen: 'audit' },
  ]
  for (const route of routes) expect(routeFromPath(pathOf(route))).toEqual(route)
  expect(pathOf({ screen: 'audit' })).toBe('/console/audit')
  expect(routeFromPath('/console/nowhere')).toEqual({ screen: 'apps' })
})
