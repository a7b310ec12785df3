import { type LinkedAccount, useLinkAccount } from '@latchkey/react'
import { useState } from 'react'
import { describeError } from './describe-error.ts'

type OAuthProvider = Exclude<Extract<LinkedAccount, { subject: string }>['type'], 'cross_app'>

const PROVIDER_NAMES: Record<OAuthProvider, string> = {
  google: 'Google',
  apple: 'Apple',
  discord: 'Discord',
  github: 'GitHub',
  linkedin: 'LinkedIn',
  spotify: 'Spotify',
  instagram: 'Instagram',
  twitter: 'Twitter',
  tiktok: 'TikTok',
  line: 'LINE',
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/**
 * How a linked account is known: its address or id, which may wrap anywhere
 * (`address`: hex, base58, an email, a provider's subject: no words in it),
 * and a note in words, which wraps only between words.
 */
interface Identifier {
  value: string
  address: boolean
  note?: string
}

function identifierOf(account: LinkedAccount): Identifier {
  switch (account.type) {
    case 'email':
      return { value: account.address, address: true }
    case 'phone':
      return { value: account.number, address: false }
    case 'wallet':
      return {
        value: account.address,
        address: true,
        note:
          account.connectorType !== 'embedded'
            ? `(${account.chainType}, ${account.walletClientType})`
            : `(${account.chainType}${account.walletIndex === null ? ', imported' : ` #${account.walletIndex}`})`,
      }
    case 'farcaster':
      return account.username
        ? { value: `@${account.username}`, address: false, note: `(fid ${account.fid})` }
        : { value: `fid ${account.fid}`, address: false }
    case 'telegram':
      return account.username
        ? { value: `@${account.username}`, address: false }
        : { value: account.telegramUserId, address: true }
    case 'custom':
      return { value: account.customUserId, address: true }
    case 'guest':
      return { value: 'guest', address: false }
    case 'passkey':
      return {
        value: account.authenticatorName ?? 'Passkey',
        address: false,
        note: `(${account.credentialId.slice(0, 8)}…)`,
      }
    case 'cross_app':
      return {
        value: account.embeddedWallets[0]?.address ?? account.subject,
        address: true,
        note: `(app ${account.providerApp.id})`,
      }
    case 'smart_wallet':
      return {
        value: account.address,
        address: true,
        note: `(${account.smartWalletType} ${account.smartWalletVersion})`,
      }
    default:
      return { value: account.email ?? account.username ?? account.subject, address: true }
  }
}

/** The identifier a linked account is known by, in one string (row keys, button labels). */
function identifier(account: LinkedAccount): string {
  const { value, note } = identifierOf(account)
  return note ? `${value} ${note}` : value
}

export function LinkedAccounts({ accounts }: { accounts: LinkedAccount[] }) {
  const link = useLinkAccount()
  const [error, setError] = useState<string | null>(null)
  const has = (type: LinkedAccount['type']) => accounts.some((a) => a.type === type)

  /** The unlink call for a login method; embedded wallets, custom and guest accounts have none. */
  function unlinker(account: LinkedAccount): (() => Promise<unknown>) | null {
    switch (account.type) {
      case 'email':
        return () => link.unlinkEmail(account.address)
      case 'phone':
        return () => link.unlinkPhone(account.number)
      case 'telegram':
        return () => link.unlinkTelegram(account.telegramUserId)
      case 'wallet':
        // Embedded wallets cannot be unlinked (spec 01 §5).
        return account.connectorType === 'embedded'
          ? null
          : () => link.unlinkWallet(account.address, account.chainType)
      case 'farcaster':
        return () => link.unlinkFarcaster(account.fid)
      case 'passkey':
        return () => link.unlinkPasskey(account.credentialId)
      case 'custom':
      case 'guest':
      case 'cross_app':
      case 'smart_wallet':
        return null
      default:
        return () => link.unlinkOAuth(account.type, account.subject)
    }
  }

  /** Email and phone can be replaced (a code to the new one). */
  function updater(account: LinkedAccount): (() => void) | null {
    if (account.type === 'email') return () => link.updateEmail(account.address)
    if (account.type === 'phone') return () => link.updatePhone(account.number)
    return null
  }

  /** Starts a redirect link (OAuth, Telegram); an error before leaving shows here. */
  const leaveToLink = (start: () => Promise<void> | void) => async () => {
    setError(null)
    try {
      await start()
    } catch (e) {
      setError(describeError(e))
    }
  }
  const socials = link.methods.filter((m): m is OAuthProvider => m in PROVIDER_NAMES)

  return (
    <div className="section">
      <h3 className="section-title" id="linked-title">
        Linked accounts
      </h3>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={has('email')}
          onClick={link.linkEmail}
        >
          Link email
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={has('phone')}
          onClick={link.linkPhone}
        >
          Link phone
        </button>
        {socials.map((provider) => (
          <button
            key={provider}
            type="button"
            className="button button-secondary"
            disabled={has(provider)}
            onClick={leaveToLink(() => link.linkOAuth(provider))}
          >
            Link {PROVIDER_NAMES[provider]}
          </button>
        ))}
        {link.methods.includes('wallet') && (
          <button type="button" className="button button-secondary" onClick={link.linkWallet}>
            Link wallet
          </button>
        )}
        {link.methods.includes('farcaster') && (
          <button
            type="button"
            className="button button-secondary"
            disabled={has('farcaster')}
            onClick={link.linkFarcaster}
          >
            Link Farcaster
          </button>
        )}
        {link.methods.includes('telegram') && (
          <button
            type="button"
            className="button button-secondary"
            disabled={has('telegram')}
            onClick={leaveToLink(link.linkTelegram)}
          >
            Link Telegram
          </button>
        )}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {accounts.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <table className="table" aria-labelledby="linked-title">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Identifier</th>
              <th scope="col">Verified</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((account) => (
              <tr key={`${account.type}:${identifier(account)}`}>
                <td className="cell-type">
                  <span className="type-pill">{account.type}</span>
                </td>
                <td className="cell-identifier mono">
                  <IdentifierText {...identifierOf(account)} />
                </td>
                <td className="cell-verified">
                  <time dateTime={account.verifiedAt.toISOString()}>
                    {dateFormat.format(account.verifiedAt)}
                  </time>
                </td>
                <td className="cell-actions">
                  <div className="row-actions">
                    {updater(account) && (
                      <button
                        type="button"
                        className="link-button"
                        aria-label={`Change ${account.type} ${identifier(account)}`}
                        onClick={updater(account) ?? undefined}
                      >
                        Change
                      </button>
                    )}
                    <UnlinkButton
                      label={`Unlink ${account.type} ${identifier(account)}`}
                      unlink={unlinker(account)}
                      onError={setError}
                    />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}

/** An address or id wraps anywhere; its note in words wraps only between words. */
function IdentifierText({ value, address, note }: Identifier) {
  return (
    <>
      <span data-wrap={address ? 'anywhere' : undefined}>{value}</span>
      {note && <span className="identifier-note"> {note}</span>}
    </>
  )
}

function UnlinkButton({
  label,
  unlink,
  onError,
}: {
  label: string
  unlink: (() => Promise<unknown>) | null
  onError(message: string | null): void
}) {
  const [busy, setBusy] = useState(false)
  if (!unlink) return null
  return (
    <button
      type="button"
      className="link-button"
      aria-label={label}
      disabled={busy}
      onClick={async () => {
        setBusy(true)
        onError(null)
        try {
          await unlink()
        } catch (e) {
          onError(describeError(e))
        } finally {
          setBusy(false)
        }
      }}
    >
      Unlink
    </button>
  )
}
