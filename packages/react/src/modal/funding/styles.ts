// The funding screens' few rules, added by the funding chunk itself so the
// modal's stylesheet (and first load) does not carry them.
const css = `
.lk-wallet-card[data-funded='true'] { background: var(--lk-success-bg); }
.lk-wallet-card[data-funded='true'] .lk-wallet-card-balance { color: var(--lk-success); font-weight: 600; }
.lk-fund-badge { margin-left: auto; flex: none !important; }
.lk-fund-address { display: flex; align-items: center; gap: 8px; padding: 8px 8px 8px 14px; border: 1px solid var(--lk-border); border-radius: var(--lk-radius-sm); font-size: 13px; }
.lk-fund-address code { flex: 1; min-width: 0; padding: 0; background: none; overflow-wrap: anywhere; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--lk-fg); }
.lk-fund-status { display: flex; flex-direction: column; align-items: center; gap: 8px; text-align: center; padding: 8px 0; }
.lk-fund-status h3 { margin: 0; font-size: 16px; font-weight: 600; color: var(--lk-fg); }
.lk-fund-status p { margin: 0; font-size: 14px; color: var(--lk-fg-muted); }
.lk-fund-hint { align-self: center; font-size: 13px; text-align: center; }
.lk-fund-network { margin: 0; font-size: 13px; text-align: center; color: var(--lk-fg-muted); }
.lk-fund-options { list-style: none; margin: 0; padding: 0; }
.lk-fund-wallets > .lk-spinner { align-self: center; }
`

const STYLE_ID = 'latchkey-funding-styles'

/** Adds the funding rules to the document once. */
export function injectFundingStyles(doc: Document | undefined = globalThis.document): void {
  if (!doc || doc.getElementById(STYLE_ID)) return
  const style = doc.createElement('style')
  style.id = STYLE_ID
  style.textContent = css
  doc.head.appendChild(style)
}
