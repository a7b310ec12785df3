/**
 * The test app's page origin. A module of its own so helpers that need only
 * the constant (passkey and SIWS ceremonies, the two-node tests) do not load
 * the test instance and with it a database (scripts/storage-tests.ts).
 */
export const TEST_ORIGIN = 'http://app.test'
