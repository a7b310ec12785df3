import { fileURLToPath } from 'node:url'
import { defaultClientConditions, defaultServerConditions } from 'vite'
import { configDefaults, defineConfig } from 'vitest/config'
import { filesThatMockModules, splitServerTests } from './scripts/storage-tests.ts'

// One runner for everything: `npm test` runs every project below (SQLite, or
// PostgreSQL for `storage` and `e2e` when DATABASE_URL is set). CI runs the
// projects that touch no database once, and `storage` plus a browser smoke
// pass again on PostgreSQL (`npm run test:postgres`); docs/testing.md.
//
// Test files share one module graph per worker (`isolate: false`): importing
// the server or the modal once instead of once per file is most of the suite's
// speed. Files that replace modules with `vi.mock` get their own graph.
const root = fileURLToPath(new URL('.', import.meta.url))
const clientDirs = [
  'packages/protocol/src',
  'packages/core/src',
  'packages/react/src',
  'packages/enclave/src',
  'packages/wagmi/src',
]
const mocking = filesThatMockModules(root, clientDirs)
const server = splitServerTests(root)
const testingLibrarySetup = 'packages/react/src/test/setup.ts'

// Workspace packages resolve to their TypeScript sources through the
// `latchkey-source` export condition (dist/ is what apps that install them get).
const SOURCE_CONDITION = 'latchkey-source'

export default defineConfig({
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions] } },
  test: {
    // Vitest's default on a 2-core machine is one worker: the projects below
    // would run one file at a time while the packaging test waits on npm and
    // the storage tests on the database. Three at a time on two cores: the
    // packaging test holds one worker mostly waiting (docs/testing.md; 381 s
    // for these projects against about 450 s with two).
    maxWorkers: 3,
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
    // Node runs with the `module` condition (ssr.resolve.conditions above), which
    // loads WalletConnect's ESM builds natively; their default import of the
    // CJS-only @walletconnect/jsonrpc-ws-connection then gets the module object.
    // Vite's interop handles it (packages/core/src/external/walletconnect.relay.test.ts).
    server: { deps: { inline: [/@walletconnect\//] } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: clientDirs.map((dir) => `${dir}/**/*.test.{ts,tsx}`),
          exclude: mocking,
          environment: 'happy-dom',
          setupFiles: [testingLibrarySetup, 'packages/react/src/test/preload-modal.ts'],
          isolate: false,
          // A ceiling, not a budget: a test may wait on several screens (each
          // `findBy*` up to 5 s, test/setup.ts), and a loaded machine stretches them.
          testTimeout: 20_000,
          // Files that start Anvil (and deploy contracts) in `beforeAll` took
          // over vitest's default 10 s on a loaded two-core machine.
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-mocks',
          include: mocking,
          environment: 'happy-dom',
          setupFiles: [testingLibrarySetup],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: server.pure,
          environment: 'node',
          isolate: false,
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'storage',
          include: server.storage,
          environment: 'node',
          isolate: false,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'e2e/packaging/**'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          // Ceilings for tests that wait on events, not budgets: four files at a
          // time on two loaded cores stretch the longest flows (a wallet
          // backed up and recovered on a second device) past a minute.
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // A browser test mostly waits (on the product's own timers, on
          // Chromium, on the server): four at a time keep two cores busy.
          maxWorkers: 4,
          // Its own group (run after the others in `npm test`): vitest needs
          // one per distinct maxWorkers.
          sequence: { groupOrder: 1 },
          // `expect.poll` waits for what the page shows; its default ceiling
          // (1 s) is a wall-clock bet a loaded machine loses (a passkey
          // ceremony plus a server round trip). Playwright's locators wait
          // up to 30 s by default; polls get the same kind of ceiling.
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        extends: true,
        test: {
          // Packs the published packages and installs them in apps outside the repo.
          name: 'packaging',
          include: ['e2e/packaging/**/*.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
})
