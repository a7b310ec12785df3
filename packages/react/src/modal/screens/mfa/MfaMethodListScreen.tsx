import { errorMessages } from '@latchkey/protocol/errors'
import { ShieldIcon, TrashIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { Spinner } from '../../components/Spinner.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'
import { ENROLL_ORDER, inOrder, mfaMethodLabels } from './labels.ts'
import { MfaMethodIcon } from './MfaMethodIcon.tsx'
import type { MfaMethod } from './types.ts'

export interface MfaMethodListScreenProps {
  /** The app's `mfa_methods`: only these are listed. */
  allowedMethods: readonly MfaMethod[]
  /** The user's methods: these read Enabled and carry the remove icon. */
  enabledMethods: readonly MfaMethod[]
  /** The user's phone is a login method: SMS cannot be added (spec 02 §6). */
  smsUnavailable: boolean
  /** Methods that can be chosen although enabled (passkey: more passkeys to enable). */
  alsoChoosable?: readonly MfaMethod[]
  /** A method being started (its row shows a spinner; every row waits). */
  busy?: MfaMethod | null
  /** The last failure of starting or removing a method, in the catalogue's words. */
  error?: string | null
  onChoose(method: MfaMethod): void
  onRemove(method: MfaMethod): void
  onDone(): void
}

/**
 * Spec 02 / 03 method list: 'Choose a verification method' with passkey,
 * authenticator app and SMS (the app's methods only), each Enabled or
 * Disabled, a remove icon on the enabled ones. With no method allowed by the
 * app: 'Add more security'. SMS is disabled, with the reason, while the
 * user's phone is a login method.
 */
export function MfaMethodListScreen(props: MfaMethodListScreenProps) {
  const { enabledMethods, smsUnavailable, busy = null, error, onChoose, onRemove, onDone } = props
  const listed = inOrder(props.allowedMethods, ENROLL_ORDER)
  const none = listed.length === 0
  return (
    <ScreenLayout
      title={none ? 'Add more security' : 'Choose a verification method'}
      subtitle={
        none
          ? 'This app has not turned on any verification methods yet.'
          : 'Add a second step to confirm wallet actions.'
      }
      media={
        <StatusIcon tone="neutral">
          <ShieldIcon />
        </StatusIcon>
      }
    >
      <div className="lk-stack">
        {!none && (
          <ul className="lk-options" aria-label="Verification methods" style={LIST_STYLE}>
            {listed.map((method) => {
              const enabled = enabledMethods.includes(method)
              const blocked = method === 'sms' && smsUnavailable && !enabled
              const label = mfaMethodLabels[method]
              const choosable = !blocked && (!enabled || props.alsoChoosable?.includes(method))
              const face = (
                <>
                  <MfaMethodIcon method={method} />
                  <span className="lk-passkey-info">
                    <strong>{label}</strong>
                    {blocked && <span>{errorMessages.MFA_SMS_PHONE_IS_LOGIN.title}</span>}
                  </span>
                  {busy === method ? (
                    <Spinner size="sm" label={`Setting up ${label}`} />
                  ) : (
                    <span className="lk-chip" style={enabled ? CHIP_STYLE : OFF_CHIP_STYLE}>
                      {enabled ? 'Enabled' : 'Disabled'}
                    </span>
                  )}
                </>
              )
              return (
                <li key={method} className="lk-row">
                  {choosable || blocked ? (
                    <button
                      type="button"
                      className="lk-option"
                      disabled={blocked || busy !== null}
                      aria-busy={busy === method}
                      onClick={() => onChoose(method)}
                    >
                      {face}
                    </button>
                  ) : (
                    <div className="lk-option" style={STATIC_STYLE}>
                      {face}
                    </div>
                  )}
                  {enabled && (
                    <button
                      type="button"
                      className="lk-icon-btn"
                      aria-label={`Remove ${label}`}
                      disabled={busy !== null}
                      onClick={() => onRemove(method)}
                    >
                      <TrashIcon />
                    </button>
                  )}
                </li>
              )
            })}
          </ul>
        )}
        {error && (
          <p className="lk-alert" role="alert">
            {error}
          </p>
        )}
        <div className="lk-actions">
          <button
            type="button"
            className="lk-btn lk-btn-secondary"
            disabled={busy !== null}
            onClick={onDone}
          >
            Done
          </button>
        </div>
      </div>
    </ScreenLayout>
  )
}

const LIST_STYLE = { listStyle: 'none', margin: 0, padding: 0 } as const
/** An enabled row: drawn like the others, but not a choice. */
const STATIC_STYLE = { cursor: 'default' } as const
/** `.lk-option span` stretches; the status keeps its size. */
const CHIP_STYLE = { flex: 'none' } as const
/** 'Disabled' reads as a state, not a highlight: muted, where 'Enabled' takes the accent. */
const OFF_CHIP_STYLE = {
  flex: 'none',
  color: 'var(--lk-fg-muted)',
  background: 'var(--lk-bg-muted)',
} as const
