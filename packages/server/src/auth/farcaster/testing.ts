/*
 * Test peers of Sign In With Farcaster, usable by server and browser tests:
 *
 * - startFakeFarcasterRelay(): a local relay speaking the Farcaster Connect
 *   relay API over HTTP (farcasterxyz/auth-monorepo relay-core app.ts:
 *   POST /v1/channel, GET /v1/channel/status, POST /v1/channel/authenticate),
 *   including its quirk of deleting a channel once it reported it completed.
 * - startFarcasterChain(): Anvil with chain id 10 and an IdRegistry-shaped
 *   contract (custodyOf(uint256), register(address)) deployed on it.
 * - signInWithFarcasterApp(): plays the Farcaster app (Warpcast): reads the
 *   channel's parameters, signs the SIWF message with the custody key and
 *   posts it to the relay.
 */

export * from './testing-chain.ts'
export * from './testing-relay.ts'
