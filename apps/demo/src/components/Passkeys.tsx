import { useLinkAccount, useManagePasskeys } from '@latchkey/react'

/**
 * Passkeys of the logged-in user: the modal's management screen (list,
 * unlink, 'Add new passkey' up to 5) and a direct link. 'Link passkey' stays
 * enabled at 5 on purpose: the modal then shows the server's refusal,
 * 'Cannot link more passkeys to account.'.
 */
export function Passkeys() {
  const { passkeys, canAddPasskey, managePasskeys } = useManagePasskeys()
  const { methods, linkPasskey } = useLinkAccount()
  if (!methods.includes('passkey') && passkeys.length === 0) return null
  return (
    <div className="section">
      <h3 className="section-title">Passkeys</h3>
      <p className="muted" data-testid="passkey-count">
        {passkeys.length} of 5 linked{canAddPasskey ? '' : ' (the limit)'}
      </p>
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={() => managePasskeys()}>
          Manage passkeys
        </button>
        <button type="button" className="button button-secondary" onClick={linkPasskey}>
          Link passkey
        </button>
      </div>
    </div>
  )
}
