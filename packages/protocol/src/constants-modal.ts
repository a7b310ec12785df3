/**
 * Timings and sizes of the login modal's screens (spec 01 §9, spec 02 §9,
 * spec 03 §9). A module of their own, re-exported by constants.ts: only the
 * modal's lazy chunk uses them, so none lands in the first chunk (docs/first-load.md).
 * Milliseconds unless named.
 */
export const CODE_LENGTH = 6
/** Spec 01 §5, §9: a user holds at most this many passkeys (other account types: 1). */
export const MAX_PASSKEYS_PER_USER = 5
export const CODE_RESEND_COOLDOWN_MS = 30_000
export const CODE_TTL_MS = 10 * 60_000
export const CODE_MAX_ATTEMPTS = 5
export const WRONG_CODE_CLEAR_DELAY_MS = 1_400
export const SUCCESS_CLOSE_DELAY_MS = 1_400
export const POST_LOGIN_DELAY_MS = 900
/** Spec 02 §9: the account-transfer 'Success!' closes the modal 1 s later. */
export const TRANSFER_SUCCESS_CLOSE_DELAY_MS = 1_000
/** 'Account deleted' closes the modal 1 s later (useDeleteAccount; as the transfer's success). */
export const ACCOUNT_DELETED_CLOSE_DELAY_MS = 1_000
export const LOGIN_MESSAGE_MAX_LENGTH = 100
export const MAX_PRIMARY_LOGIN_METHODS = 4
export const MODAL_OPEN_DELAY_MS = 15
export const MODAL_RESET_DELAY_MS = 500
export const MODAL_WIDTH_PX = 360
export const MODAL_BREAKPOINT_PX = 441

export const DEFAULT_LANDING_HEADER = 'Log in or sign up'
export const DEFAULT_ACCENT_COLOR = '#676FFF'
export const DEFAULT_COUNTRY = 'US'

/** The wallet-created screen ("Welcome" / "All set!") closes itself after this long (spec 02). */
export const WALLET_CREATED_CLOSE_DELAY_MS = 2_500
/** Spec 03 §4, §9: the connect-wallet screen stays up at least this long when export opened it. */
export const CONNECT_WALLET_MIN_DISPLAY_FROM_EXPORT_MS = 1_000
/** The sign-message screen's details box never grows taller than this (spec 03 §9). */
export const SIGN_MESSAGE_DETAILS_MAX_HEIGHT_PX = 310
/** Spec 02 §5, §9: recovery password strength (score thresholds, and the length below which it is Weak). */
export const PASSWORD_STRENGTH_MEDIUM = 0.5
export const PASSWORD_STRENGTH_STRONG = 0.9
export const PASSWORD_STRENGTH_MIN_LENGTH = 8
/** Spec 02 §9: a downloaded password's blob URL is revoked this long after the download starts. */
export const DOWNLOAD_URL_REVOKE_DELAY_MS = 5_000
/** Spec 02 §9: 'Copied' feedback after copying the password. */
export const COPY_FEEDBACK_MS = 1_500
/** Spec 02 §9: the copy button's confirm (check) icon after a copy. */
export const COPY_CONFIRM_ICON_MS = 2_000

/** How the spec's messages name each cloud-recovery provider (spec 02 "Recovery by cloud drive"). */
export const CLOUD_RECOVERY_PROVIDER_NAMES = {
  'google-drive': 'Google Drive',
  icloud: 'iCloud',
} as const
/** Spec 02 §9: the enrollment modal resets its selections this long after closing. */
export const MFA_MODAL_RESET_MS = 500
