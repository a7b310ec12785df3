// The enclave is built by the embedded-wallets issue; see README.md.
export {}
