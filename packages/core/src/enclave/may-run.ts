// Apart from the bridge, so that the provider can tell on mount, without the
// bridge's code, whether to bind sessions to the enclave (docs/first-load.md).

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Spec 01 §5: the embedded wallet requires HTTPS except on localhost (else WALLET_PROXY_INSECURE). */
export const enclaveMayRun = (url: URL): boolean =>
  url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname))
