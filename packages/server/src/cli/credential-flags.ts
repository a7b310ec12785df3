import type { ProviderCredentials } from '../apps/credentials.ts'

/**
 * Credentials from the command's flags. Secrets come from an environment
 * variable named by a flag (`--client-secret-env VAR`), never from argv,
 * which other users of the machine can read. The CloudKit API token is not a
 * secret (CloudKit JS ships it to browsers), so `--api-token` is allowed too.
 * Returns an error message on a missing flag.
 */
export function credentialsFromFlags(
  provider: ProviderCredentials['provider'],
  values: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv,
): ProviderCredentials | string {
  const flag = (name: string) => {
    const value = values[name]
    return typeof value === 'string' && value !== '' ? value : undefined
  }
  const fromEnv = (name: string): string | undefined => {
    const variable = flag(name)
    return variable ? env[variable] || undefined : undefined
  }
  if (provider === 'google-drive') {
    const clientId = flag('client-id')
    const variable = flag('client-secret-env')
    const clientSecret = fromEnv('client-secret-env')
    if (!clientId || !variable)
      return 'apps credentials set … google-drive needs --client-id and --client-secret-env VAR'
    if (!clientSecret) return `The environment variable ${variable} is empty or not set`
    return { provider, client_id: clientId, client_secret: clientSecret }
  }
  if (provider === 'telegram') {
    const botName = flag('bot-name')
    const variable = flag('bot-token-env')
    const botToken = fromEnv('bot-token-env')
    if (!botName || !variable)
      return 'apps credentials set … telegram needs --bot-name and --bot-token-env VAR'
    if (!botToken) return `The environment variable ${variable} is empty or not set`
    return { provider, bot_name: botName, bot_token: botToken }
  }
  if (provider === 'turnstile') {
    // Cloudflare Turnstile (docs/captcha.md): the secret key siteverify is called with.
    const variable = flag('secret-key-env')
    const secretKey = fromEnv('secret-key-env')
    if (!variable) return 'apps credentials set … turnstile needs --secret-key-env VAR'
    if (!secretKey) return `The environment variable ${variable} is empty or not set`
    return { provider, secret_key: secretKey }
  }
  if (provider === 'moonpay') {
    // MoonPay (docs/funding.md): the secret key widget URLs are signed with.
    const variable = flag('secret-key-env')
    const secretKey = fromEnv('secret-key-env')
    if (!variable) return 'apps credentials set … moonpay needs --secret-key-env VAR'
    if (!secretKey) return `The environment variable ${variable} is empty or not set`
    return { provider, secret_key: secretKey.trim() }
  }
  if (provider === 'coinbase-onramp') {
    // Coinbase Onramp (docs/funding.md): a CDP secret API key, its name and its private key.
    const name = flag('api-key-name')
    const variable = flag('api-key-secret-env')
    const secret = fromEnv('api-key-secret-env')
    if (!name || !variable)
      return 'apps credentials set … coinbase-onramp needs --api-key-name NAME and --api-key-secret-env VAR'
    if (!secret) return `The environment variable ${variable} is empty or not set`
    // A PEM key kept on one line in an env file has its newlines written as \n.
    return { provider, api_key_name: name, api_key_secret: secret.replace(/\\n/g, '\n').trim() }
  }
  if (provider === 'farcaster-signer') {
    // Farcaster signer: the app's requesting FID and its custody key (private key or mnemonic).
    const fid = flag('request-fid')
    const variable = flag('custody-key-env')
    const custodyKey = fromEnv('custody-key-env')
    if (!fid || !variable)
      return 'apps credentials set … farcaster-signer needs --request-fid FID and --custody-key-env VAR'
    if (!custodyKey) return `The environment variable ${variable} is empty or not set`
    return { provider, request_fid: fid, custody_key: custodyKey.trim() }
  }
  if (provider !== 'icloud') {
    // OAuth login providers (docs/login-oauth.md): the app's client at the provider.
    const clientId = flag('client-id')
    const variable = flag('client-secret-env')
    const clientSecret = fromEnv('client-secret-env')
    if (!clientId || !variable)
      return `apps credentials set … ${provider} needs --client-id and --client-secret-env VAR`
    if (!clientSecret) return `The environment variable ${variable} is empty or not set`
    return { provider, client_id: clientId, client_secret: clientSecret }
  }
  const containerId = flag('container-id')
  const environment = flag('environment')
  const apiToken = flag('api-token-env') ? fromEnv('api-token-env') : flag('api-token')
  if (!containerId || !environment || !(flag('api-token-env') || flag('api-token')))
    return 'apps credentials set … icloud needs --container-id, --environment and --api-token-env VAR (or --api-token)'
  if (!apiToken) return `The environment variable ${flag('api-token-env')} is empty or not set`
  if (environment !== 'development' && environment !== 'production')
    return '--environment must be development or production'
  return { provider, container_id: containerId, environment, api_token: apiToken }
}
