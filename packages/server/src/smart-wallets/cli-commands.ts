import { SMART_WALLET_TYPES } from '@latchkey/protocol'

// `latchkey apps smart-wallets …` (docs/smart-wallets.md "CLI"). The specs
// are spread into cli/commands.ts COMMANDS (structurally its CommandSpec: no
// import back, so no cycle); runCli hands the commands to smartWalletCli
// (cli.ts here).

const json = { type: 'boolean', help: 'print JSON on stdout' } as const
const chainId = {
  type: 'string',
  value: 'N',
  help: 'EVM chain id, e.g. 8453 (Base)',
} as const
const URL_NOTE =
  'A bundler or paymaster URL often carries an API key: pass it in an environment variable ' +
  '(--bundler-url-env VAR, --paymaster-url-env VAR) rather than on the command line, which ' +
  'other users of the machine can read. URLs stay on the server: the browser reaches them ' +
  'through /api/v1/smart_wallets/{chainId}/rpc.'

export const SMART_WALLET_COMMANDS = [
  {
    path: ['apps', 'smart-wallets', 'show'],
    args: ['ID'],
    synopsis: 'ID [--json]',
    summary: "print the app's smart-wallet settings and its paymaster signer address",
    flags: { json },
  },
  {
    path: ['apps', 'smart-wallets', 'set'],
    args: ['ID'],
    synopsis: `ID [--enable | --disable] [--type ${SMART_WALLET_TYPES.join('|')}]`,
    summary: 'turn smart wallets on or off, and choose the account type',
    flags: {
      enable: { type: 'boolean', help: 'users get smart wallets on the configured chains' },
      disable: { type: 'boolean', help: 'no smart wallets (the chains are kept)' },
      type: {
        type: 'string',
        value: 'TYPE',
        help: `account type: ${SMART_WALLET_TYPES.join(', ')} (default safe)`,
      },
    },
  },
  {
    path: ['apps', 'smart-wallets', 'add-chain'],
    args: ['ID'],
    synopsis:
      'ID --chain-id N (--bundler-url URL | --bundler-url-env VAR) [--paymaster-address 0x… | --paymaster-url URL | --paymaster-url-env VAR [--paymaster-context JSON]]',
    summary: 'add a chain (or replace its settings): its bundler, and who sponsors gas there',
    flags: {
      'chain-id': chainId,
      'bundler-url': { type: 'string', value: 'URL', help: 'the ERC-4337 bundler (JSON-RPC)' },
      'bundler-url-env': {
        type: 'string',
        value: 'VAR',
        help: 'environment variable holding the bundler URL',
      },
      'paymaster-address': {
        type: 'string',
        value: '0x…',
        help: "sponsor with the server's signer: the VerifyingPaymaster deployed with the paymaster-key address",
      },
      'paymaster-url': {
        type: 'string',
        value: 'URL',
        help: 'sponsor through an ERC-7677 paymaster service',
      },
      'paymaster-url-env': {
        type: 'string',
        value: 'VAR',
        help: 'environment variable holding the ERC-7677 paymaster URL',
      },
      'paymaster-context': {
        type: 'string',
        value: 'JSON',
        help: 'ERC-7677 context object sent with every pm_* call, e.g. {"sponsorshipPolicyId":"sp_…"}',
      },
    },
    notes: [URL_NOTE, 'Without a paymaster flag the users pay their own gas on the chain.'],
  },
  {
    path: ['apps', 'smart-wallets', 'remove-chain'],
    args: ['ID'],
    synopsis: 'ID --chain-id N',
    summary: 'remove a chain',
    flags: { 'chain-id': chainId },
  },
  {
    path: ['apps', 'smart-wallets', 'policy'],
    args: ['ID'],
    synopsis:
      'ID [--contracts A,…|any] [--max-operations-per-day N|none] [--max-gas-cost-per-day WEI|none]',
    summary: "set what the server's paymaster sponsors; a flag left out keeps its value",
    flags: {
      contracts: {
        type: 'string',
        value: 'A,…',
        help: "addresses sponsored operations may call, comma-separated ('any': no limit)",
      },
      'max-operations-per-day': {
        type: 'string',
        value: 'N',
        help: "sponsored operations per user in 24 hours, all chains ('none': no limit)",
      },
      'max-gas-cost-per-day': {
        type: 'string',
        value: 'WEI',
        help: "wei of gas (operations' max cost) per user in 24 hours on each chain ('none': no limit)",
      },
      json,
    },
    notes: [
      'Applies to chains whose paymaster is the server (--paymaster-address); an ERC-7677 ' +
        'service applies its own policy. A contracts list refuses operations whose calls the server cannot read.',
    ],
  },
  {
    path: ['apps', 'smart-wallets', 'paymaster-key'],
    args: ['ID'],
    synopsis: 'ID [--json]',
    summary:
      "create the app's paymaster signer if it has none, and print its address (deploy VerifyingPaymaster with it)",
    flags: { json },
    notes: [
      'The key is made on the server and sealed at rest with the master key; it never leaves. ' +
        "Deploy eth-infinitism's VerifyingPaymaster with this address as verifyingSigner: v0.7 " +
        '(EntryPoint 0x0000000071727De22E5E9d8BAf0edAc6f37da032) for safe and simple accounts, the v0.8 ' +
        'build (EntryPoint 0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108) for simple_7702 ' +
        '(docs/smart-wallets.md); fund its deposit, then add-chain --paymaster-address.',
    ],
    env: { LATCHKEY_MASTER_KEY: 'seals secrets at rest (default in development: DIR/master.key)' },
  },
] as const
