import { WEBHOOK_EVENT_TYPES } from './events.ts'

// The `latchkey apps webhook …` commands as cli/commands.ts lists them
// (structurally its CommandSpec: no import back, so no cycle).

const json = { type: 'boolean', help: 'print JSON on stdout' } as const
const masterKeyEnv = {
  LATCHKEY_MASTER_KEY: 'seals secrets at rest (default in development: DIR/master.key)',
}

export const WEBHOOK_COMMANDS = [
  {
    path: ['apps', 'webhook', 'set'],
    args: ['ID'],
    synopsis: 'ID [--url URL] [--event E…] [--enable | --disable] [--json]',
    summary: "create or change the app's webhook; a new one prints its signing secret once",
    flags: {
      url: {
        type: 'string',
        value: 'URL',
        help: 'where events are POSTed: https (http only to localhost, outside production)',
      },
      event: {
        type: 'string',
        multiple: true,
        value: 'E',
        help: `an event to send (repeat; default on create: all): ${WEBHOOK_EVENT_TYPES.join(', ')}`,
      },
      enable: { type: 'boolean', help: 'send events (the default of a new webhook)' },
      disable: { type: 'boolean', help: 'stop sending; undelivered events wait until enabled' },
      json,
    },
    notes: [
      'Requests follow the Standard Webhooks spec (webhook-id, webhook-timestamp, ' +
        'webhook-signature headers); check them with verifyWebhook from @latchkey/server. ' +
        'The secret (whsec_…) is sealed at rest and shown only when made; ' +
        '"apps webhook rotate-secret" makes a new one. Changes apply at once on every node.',
    ],
    env: masterKeyEnv,
  },
  {
    path: ['apps', 'webhook', 'show'],
    args: ['ID'],
    synopsis: 'ID [--json]',
    summary: "print the app's webhook (never its secret) and its deliveries by status",
    flags: { json },
  },
  {
    path: ['apps', 'webhook', 'deliveries'],
    args: ['ID'],
    synopsis: 'ID [--json]',
    summary: "list the webhook's latest 20 deliveries: event, status, attempts, last error",
    flags: { json },
  },
  {
    path: ['apps', 'webhook', 'rotate-secret'],
    args: ['ID'],
    synopsis: 'ID [--drop-previous] [--json]',
    summary: 'new signing secret, printed once; the previous one also signs for 24 h',
    flags: {
      'drop-previous': {
        type: 'boolean',
        help: 'stop signing with the previous secret at once (it leaked)',
      },
      json,
    },
    env: masterKeyEnv,
  },
  {
    path: ['apps', 'webhook', 'delete'],
    args: ['ID'],
    synopsis: 'ID',
    summary: "delete the app's webhook and its undelivered events",
    flags: {},
  },
] as const
