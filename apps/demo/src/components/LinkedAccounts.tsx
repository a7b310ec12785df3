import type { LinkedAccount } from '@latchkey/react'

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** The identifier a linked account is known by; later account types add their case. */
function identifier(account: LinkedAccount): string {
  switch (account.type) {
    case 'email':
      return account.address
    case 'wallet':
      return `${account.address} (${account.chainType}${account.walletIndex === null ? ', imported' : ` #${account.walletIndex}`})`
  }
}

export function LinkedAccounts({ accounts }: { accounts: LinkedAccount[] }) {
  return (
    <div className="section">
      <h3 className="section-title" id="linked-title">
        Linked accounts
      </h3>
      {accounts.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <table className="table" aria-labelledby="linked-title">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Identifier</th>
              <th scope="col">Verified</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((account) => (
              <tr key={`${account.type}:${identifier(account)}`}>
                <td>
                  <span className="type-pill">{account.type}</span>
                </td>
                <td className="mono">{identifier(account)}</td>
                <td>
                  <time dateTime={account.verifiedAt.toISOString()}>
                    {dateFormat.format(account.verifiedAt)}
                  </time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}
