import { expect, it } from 'vitest'
import * as enclave from './index.ts'

it('pins the public surface', () => {
  expect(Object.keys(enclave).sort()).toMatchInlineSnapshot(`
    [
      "EnclaveError",
      "EnclaveErrorCode",
      "PASSWORD_KDF_MINIMUM",
      "SECRET_KIND_BYTE",
      "SECRET_PAYLOAD_LENGTH",
      "assertValidSecret",
      "base64urlToBytes",
      "bytesToBase64url",
      "canonicalEntropyId",
      "combineShares",
      "decodeSecret",
      "deriveEthereumAccount",
      "derivePasswordKey",
      "deriveSlip10Ed25519",
      "deriveSolanaAccount",
      "encodeSecret",
      "entropyIdOf",
      "entropyTypeOf",
      "ethereumAddressOfPrivateKey",
      "ethereumPath",
      "generateHdSecret",
      "generateRecoveryKey",
      "importEthereumKey",
      "importSolanaKey",
      "isEnclaveError",
      "mnemonicOf",
      "newPasswordKdf",
      "openRecoveryShare",
      "parseHardenedPath",
      "reconstructAndVerify",
      "sameEntropyId",
      "sealRecoveryShare",
      "secretFromMnemonic",
      "solanaPath",
      "splitSecret",
      "toChecksumAddress",
      "wipeSecret",
    ]
  `)
})
