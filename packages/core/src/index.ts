export { deleteAccount } from './account/deleteAccount.ts'
export { getOrCreateAnalyticsId, trackEvent, WalletAnalyticsEvent } from './analytics.ts'
export {
  CAPTCHA_AUTO_EXECUTE_DELAY_MS,
  type CaptchaController,
  type CaptchaSolver,
  type CaptchaState,
  type CaptchaStatus,
  createCaptchaController,
} from './captcha.ts'
export {
  type CaptchaTokenProvider,
  type CaptchaTokenProviderOptions,
  createLatchkeyClient,
  type LatchkeyClient,
  type LatchkeyClientOptions,
} from './client.ts'
export {
  authorizeCrossAppRequest,
  type CrossAppLoginOptions,
  type CrossAppLoginReturnType,
  type CrossAppPageRequest,
  type CrossAppPopup,
  type CrossAppRpcOptions,
  crossAppAccountOf,
  crossAppRpc,
  getCrossAppDetails,
  getCrossAppRequester,
  loginWithCrossApp,
  openCrossAppPopup,
  postCrossAppAnswer,
  readCrossAppGrant,
  readCrossAppPageRequest,
  verifyCrossAppTransact,
  waitForCrossAppMessage,
} from './cross-app/index.ts'
export {
  type BridgeDocument,
  type BridgeWindow,
  createEnclaveBridge,
  type EnclaveBridge,
  type EnclaveBridgeOptions,
  type EnclaveRequestOptions,
  type KeyThumbprintOptions,
} from './enclave/bridge.ts'
export {
  type ErrorMessages,
  loadErrorMessages,
  loadedErrorMessages,
  registerErrorMessages,
} from './error-messages.ts'
export { LatchkeyError, type LatchkeyErrorOptions, toLatchkeyError } from './errors.ts'
export {
  type FarcasterSigner,
  getFarcasterSignerStatus,
  initFarcasterSigner,
  signFarcasterMessage,
  type WaitForFarcasterSignerOptions,
  waitForFarcasterSigner,
} from './farcaster-signer.ts'
export {
  type CustomAuthOptions,
  type CustomAuthState,
  type CustomAuthSync,
  createCustomAuthSync,
  type LoginWithCustomJwtReturnType,
  linkCustomJwt,
  loginWithCustomJwt,
} from './flows/customAuth.ts'
export {
  createEmailFlow,
  type EmailFlow,
  type EmailFlowIntent,
  type EmailFlowOptions,
  type EmailFlowState,
  type EmailValidationOptions,
  type LoginWithEmailCodeParameters,
  type LoginWithEmailCodeReturnType,
  linkEmail,
  loginWithEmailCode,
  type SendEmailCodeParameters,
  sendEmailCode,
  unlinkEmail,
  updateEmail,
  validateEmailInput,
} from './flows/email.ts'
export {
  FARCASTER_CHANNEL_TOKEN_HEADER,
  type FarcasterSignature,
  getFarcasterStatus,
  type LoginWithFarcasterParameters,
  type LoginWithFarcasterReturnType,
  linkFarcaster,
  loginWithFarcaster,
  type StartFarcasterLoginParameters,
  type StartFarcasterLoginReturnType,
  startFarcasterLogin,
  unlinkFarcaster,
  type WaitForFarcasterOptions,
  waitForFarcaster,
} from './flows/farcaster.ts'
export {
  clearGuestCredential,
  GUEST_CREDENTIAL_KEY,
  getOrCreateGuestCredential,
  type LoginAsGuestReturnType,
  loginAsGuest,
} from './flows/guest.ts'
export {
  type CompleteOAuthReturnType,
  completeOAuth,
  type InitOAuthParameters,
  initOAuth,
  OAUTH_LOGIN_MAX_AGE_MS,
  type OAuthReturn,
  type OAuthUi,
  oauthPendingKey,
  type PendingOAuth,
  takeOAuthReturn,
  unlinkOAuth,
} from './flows/oauth.ts'
export {
  browserPasskeyCeremonies,
  createPasskeyFlow,
  isWebAuthnSupported,
  type LoginWithPasskeyParameters,
  type LoginWithPasskeyReturnType,
  linkPasskey,
  loginWithPasskey,
  PASSKEY_LIMIT,
  type PasskeyAction,
  type PasskeyCeremonies,
  type PasskeyFlow,
  type PasskeyFlowOptions,
  type PasskeyFlowState,
  type PasskeyOperationOptions,
  type PasskeyStep,
  signupWithPasskey,
  type UnlinkPasskeyParameters,
  unlinkPasskey,
} from './flows/passkey.ts'
export { redirectLoginPending } from './flows/pending-keys.ts'
export {
  createSmsFlow,
  type LoginWithSmsCodeParameters,
  type LoginWithSmsCodeReturnType,
  linkPhone,
  loginWithSmsCode,
  type SendSmsCodeParameters,
  type SmsFlow,
  type SmsFlowIntent,
  type SmsFlowOptions,
  type SmsFlowState,
  sendSmsCode,
  toPhoneE164,
  unlinkPhone,
  updatePhone,
} from './flows/sms.ts'
export {
  createTelegramFlow,
  type LoginWithTelegramParameters,
  type LoginWithTelegramReturnType,
  linkTelegram,
  loginWithTelegram,
  type PendingTelegram,
  readMiniAppInitData,
  readTelegramReturn,
  redirectToTelegram,
  stripTelegramReturn,
  TELEGRAM_LOGIN_MAX_AGE_MS,
  TELEGRAM_OAUTH_URL,
  TELEGRAM_RETURN_PARAMS,
  type TelegramFlow,
  type TelegramFlowIntent,
  type TelegramFlowState,
  type TelegramLoginUrlParameters,
  type TelegramProof,
  type TelegramReturn,
  takeTelegramRedirect,
  takeTelegramReturn,
  telegramLoginUrl,
  telegramPendingKey,
  unlinkTelegram,
} from './flows/telegram.ts'
export { unlinkWallet } from './flows/wallet.ts'
export * from './funding/index.ts'
export { type AcceptTermsReturnType, acceptTerms } from './gates/acceptTerms.ts'
export {
  type AccountTransferInput,
  accountTransferOffer,
  canTransferAccount,
  type TransferAccountErrorType,
  type TransferAccountParameters,
  type TransferAccountReturnType,
  transferAccount,
} from './gates/transferAccount.ts'
export {
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
  type RequestOptions,
} from './http.ts'
export { decodeJwt, type TokenClaims } from './jwt.ts'
export {
  clearMfa,
  ensureMfaVerified,
  getMfaStatus,
  initSmsEnrollment,
  initTotpEnrollment,
  type MfaStatus,
  type SubmitMfaEnrollmentParameters,
  sendMfaSmsCode,
  submitMfaEnrollment,
  type TotpEnrollment,
  type UnenrollMfaParameters,
  unenrollMfa,
  type VerifyMfaParameters,
  verifyMfa,
} from './mfa/mfa.ts'
export {
  createMfaPrompter,
  getMfaPrompter,
  type MfaChallenge,
  type MfaPrompter,
  type MfaVerifyAttempt,
} from './mfa/prompter.ts'
export { MFA_METHOD_ORDER, methodsToVerify, withMfa } from './mfa/with-mfa.ts'
export { toPasskeyError } from './passkey-errors.ts'
export { type PollOptions, poll } from './poll.ts'
export { getRecentLoginMethod, type LoginMethod, setRecentLoginMethod } from './recent-login.ts'
export {
  createSessionStore,
  type SessionLock,
  type SessionState,
  type SessionStatus,
  type SessionStore,
  type SessionStoreOptions,
} from './session.ts'
export { ENCLAVE_KEY_WAIT_MS, type SessionKeyProvider } from './session-key.ts'
export {
  createEmbeddedSmartWallet,
  type EmbeddedSmartWallet,
  type EmbeddedSmartWalletParameters,
  type PreparedSmartWalletCalls,
  type SentSmartWalletCalls,
  type SmartWalletCall,
} from './smart-wallets/embedded.ts'
export {
  type CookieJar,
  createDocumentCookies,
  createLocalStorage,
  createMemoryStorage,
  type KeyValueStorage,
} from './storage.ts'
export { insufficientBalance } from './transactions/insufficient-balance.ts'
export {
  type CrossAppAccount,
  type CustomJwtAccount,
  type EmailAccount,
  type EmbeddedWalletAccount,
  type ExternalWalletAccount,
  type FarcasterAccount,
  type GuestAccount,
  isEmbeddedWallet,
  isExternalWallet,
  type LinkedAccount,
  type MfaMethod,
  type OAuthAccount,
  type PasskeyAccount,
  type PhoneAccount,
  type TelegramAccount,
  toUser,
  type User,
  type WalletAccount,
} from './user.ts'
export {
  CLOUD_CONSENT_MAX_AGE_MS,
  type CloudRecoveryAction,
  type CloudRecoveryReturn,
  cloudRecoveryChoice,
  type PendingCloudRecovery,
  pkceChallenge,
  type StartCloudConsentParameters,
  startCloudConsent,
  takeCloudConsentReturn,
} from './wallets/cloudRecovery.ts'
export {
  type ConnectEmbeddedWalletReturnType,
  connectEmbeddedWallet,
} from './wallets/connectEmbeddedWallet.ts'
export {
  type CreateWalletParameters,
  createWallet,
  embeddedWallets,
} from './wallets/createWallet.ts'
export {
  type CreateOnLogin,
  type CreateOnLoginConfig,
  chainsToCreateOnLogin,
  createWalletsOnLogin,
} from './wallets/createWalletsOnLogin.ts'
export {
  type DelegateWalletParameters,
  type DelegateWalletReturnType,
  delegateWallet,
  walletToDelegate,
} from './wallets/delegateWallet.ts'
export { attachEnclave, bindSessionsToEnclave, getEnclave } from './wallets/enclave.ts'
export { ensureWalletReady, type RecoveryCredentials } from './wallets/ensureWalletReady.ts'
export {
  createEmbeddedEthereumProvider,
  type EmbeddedEthereumProvider,
  ETHEREUM_READ_METHODS,
  type EthereumProviderOptions,
  type EthereumTransactionCall,
  ProviderRpcError,
} from './wallets/ethereumProvider.ts'
export { type ImportWalletParameters, importWallet } from './wallets/importWallet.ts'
export {
  type KeyRelease,
  type ListKeyActivityParameters,
  type ListKeyActivityReturnType,
  listKeyActivity,
} from './wallets/listKeyActivity.ts'
export {
  type LogoutAfterCreationFailureParameters,
  logoutAfterCreationFailure,
  type WalletCreationScreenName,
} from './wallets/logoutAfterCreationFailure.ts'
export { refreshWallets } from './wallets/refreshWallets.ts'
export { type RevokeWalletsReturnType, revokeWallets } from './wallets/revokeWallets.ts'
export {
  RECOVERY_PASSWORD_MIN_LENGTH,
  setRecoveryPassword,
  setWalletRecovery,
} from './wallets/setRecoveryPassword.ts'
export {
  type SignEthereumTransactionParameters,
  type SignEthereumTransactionReturnType,
  signEthereumTransaction,
} from './wallets/signEthereumTransaction.ts'
export { signSolanaMessage } from './wallets/signSolanaMessage.ts'
export { signSolanaTransaction } from './wallets/signSolanaTransaction.ts'
