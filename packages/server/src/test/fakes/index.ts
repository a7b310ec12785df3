/**
 * Local stand-ins for the cloud-drive providers, for server, enclave and
 * browser tests: real HTTP servers on 127.0.0.1 speaking Google OAuth 2.0 +
 * Drive v3 (app-data folder) and CloudKit Web Services (private database).
 *
 * @example
 * import { startFakeCloudKit, startFakeGoogle } from '@latchkey/server/test/fakes'
 * const google = await startFakeGoogle({ clients: [{ clientId: 'cid', clientSecret: 'secret' }] })
 * const cloudKit = await startFakeCloudKit({ containerId: 'iCloud.com.example.app', apiToken: 'tok' })
 *
 * @module
 */
export {
  type FakeCloudKit,
  type FakeCloudKitOptions,
  type FakeCloudKitRecord,
  startFakeCloudKit,
} from './cloudkit.ts'
export { type FakeCoinGecko, type FakeCoinGeckoOptions, startFakeCoinGecko } from './coingecko.ts'
export {
  DRIVE_APPDATA_SCOPE,
  type FakeGoogle,
  type FakeGoogleOptions,
  startFakeGoogle,
} from './google.ts'
export type { CorsOrigins } from './http.ts'
export { type FakeTurnstile, startFakeTurnstile } from './turnstile.ts'
