import { routes } from '@latchkey/protocol'
import type { Hex, LocalAccount } from 'viem'
import { type CreateSiweMessageParameters, createSiweMessage } from 'viem/siwe'
import type { AppSettings } from '../../apps/service.ts'
import { TEST_ORIGIN, type TestInstance, type TestResponse } from '../../test/instance.ts'

/** An app with wallet login (and email, to have a second login method). */
export const WALLET_APP_SETTINGS: AppSettings = { login_methods: { email: true, wallet: true } }

/** The host of TEST_ORIGIN: what a SIWE message's domain must be. */
export const TEST_DOMAIN = new URL(TEST_ORIGIN).host

/** Anvil's first dev account (funded): deploys the test contracts. */
export const ANVIL_DEPLOYER_KEY: Hex =
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

/** POST /siwe/init from the test origin; the nonce. */
export async function siweNonce(
  t: TestInstance,
  address: string,
  options: { appId?: string } = {},
): Promise<string> {
  const res = await t.request(routes.siweInit, {
    body: { address },
    origin: TEST_ORIGIN,
    ...options,
  })
  if (res.status !== 200) throw new Error(`siwe init failed: ${JSON.stringify(res.body)}`)
  return res.body.nonce
}

/**
 * An EIP-4361 message as a wallet on the test origin would sign it: chain 1,
 * issued now (the test clock); any field can be overridden.
 */
export function siweMessage(
  t: TestInstance,
  address: Hex,
  nonce: string,
  fields: Partial<CreateSiweMessageParameters> = {},
): string {
  return createSiweMessage({
    address,
    chainId: 1,
    domain: TEST_DOMAIN,
    nonce,
    uri: TEST_ORIGIN,
    version: '1',
    issuedAt: new Date(t.clock.now()),
    statement: 'Sign in to Test App',
    ...fields,
  })
}

export interface SiweAttempt {
  /** Message fields to override. */
  fields?: Partial<CreateSiweMessageParameters>
  /** Request body fields to add or override (chain_id, mode…). */
  body?: Record<string, unknown>
  /** Origin header (default TEST_ORIGIN; null for none). */
  origin?: string | null
  token?: string
  appId?: string
  /** Route (default siweAuthenticate). */
  path?: string
}

/** init → sign with `account` → authenticate (or `path`): the response. */
export async function siweSignIn(
  t: TestInstance,
  account: LocalAccount,
  attempt: SiweAttempt = {},
): Promise<TestResponse> {
  const appOptions = attempt.appId ? { appId: attempt.appId } : {}
  const nonce = await siweNonce(t, account.address, appOptions)
  const message = siweMessage(t, account.address, nonce, attempt.fields)
  const signature = await account.signMessage({ message })
  return postSiwe(t, { message, signature, ...attempt.body }, attempt)
}

/** Posts a SIWE body (wallet_client_type and connector_type filled in). */
export function postSiwe(
  t: TestInstance,
  body: Record<string, unknown>,
  attempt: Omit<SiweAttempt, 'fields' | 'body'> = {},
): Promise<TestResponse> {
  return t.request(attempt.path ?? routes.siweAuthenticate, {
    body: { wallet_client_type: 'metamask', connector_type: 'injected', ...body },
    origin: attempt.origin === undefined ? TEST_ORIGIN : attempt.origin,
    ...(attempt.token ? { token: attempt.token } : {}),
    ...(attempt.appId ? { appId: attempt.appId } : {}),
  })
}

/** A WALLET_LOGIN_FAILED answer's reason (or the code when it is another error). */
export const failureReason = (res: TestResponse): string =>
  res.body?.code === 'WALLET_LOGIN_FAILED' ? res.body.details?.reason : res.body?.code

/**
 * A minimal smart account (ERC-1271: valid when the owner signed the hash)
 * and a CREATE2 factory for it (ERC-6492 counterfactual deployment).
 */
export const SMART_ACCOUNT_SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract SmartAccount {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata sig) external view returns (bytes4) {
        if (sig.length != 65) return 0xffffffff;
        bytes32 r = bytes32(sig[0:32]);
        bytes32 s = bytes32(sig[32:64]);
        uint8 v = uint8(sig[64]);
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}

contract SmartAccountFactory {
    function deploy(address owner, bytes32 salt) external returns (address) {
        return address(new SmartAccount{salt: salt}(owner));
    }

    function addressOf(address owner, bytes32 salt) external view returns (address) {
        bytes32 digest = keccak256(
            abi.encodePacked(
                bytes1(0xff),
                address(this),
                salt,
                keccak256(abi.encodePacked(type(SmartAccount).creationCode, abi.encode(owner)))
            )
        );
        return address(uint160(uint256(digest)));
    }
}
`
