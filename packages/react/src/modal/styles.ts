import {
  MODAL_BREAKPOINT_PX,
  MODAL_WIDTH_PX,
  SIGN_MESSAGE_DETAILS_MAX_HEIGHT_PX,
} from '@latchkey/protocol/constants'

// Every selector starts with an `lk-` class, so nothing here touches the host
// page; the host themes the modal through the --lk-* custom properties.
export const css = `
.lk-root {
  --lk-accent: #676FFF;
  --lk-accent-fg: #ffffff;
  --lk-bg: #ffffff;
  --lk-bg-muted: #f5f5f7;
  --lk-bg-input: #ffffff;
  --lk-fg: #16161d;
  --lk-fg-muted: #6b6b78;
  --lk-fg-subtle: #9a9aa6;
  --lk-border: #e3e3e8;
  --lk-border-strong: #cfcfd8;
  --lk-error: #d92d20;
  --lk-error-bg: #fef3f2;
  --lk-success: #12a150;
  --lk-success-bg: #ecfdf3;
  --lk-overlay: rgba(15, 15, 22, 0.46);
  --lk-shadow: 0 24px 64px -16px rgba(15, 15, 30, 0.28), 0 2px 8px rgba(15, 15, 30, 0.06);
  --lk-radius: 16px;
  --lk-radius-sm: 12px;
  --lk-font: ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
  --lk-ring: 0 0 0 3px color-mix(in srgb, var(--lk-accent) 28%, transparent);
  font-family: var(--lk-font);
  font-size: 14px;
  line-height: 1.45;
  color: var(--lk-fg);
  -webkit-font-smoothing: antialiased;
}
.lk-root[data-lk-theme='dark'] {
  --lk-bg: #17171c;
  --lk-bg-muted: #222229;
  --lk-bg-input: #1d1d23;
  --lk-fg: #f4f4f6;
  --lk-fg-muted: #a3a3b0;
  --lk-fg-subtle: #74747f;
  --lk-border: #2e2e37;
  --lk-border-strong: #3d3d48;
  --lk-error: #f97066;
  --lk-error-bg: rgba(249, 112, 102, 0.12);
  --lk-success: #47cd89;
  --lk-success-bg: rgba(71, 205, 137, 0.12);
  --lk-overlay: rgba(0, 0, 0, 0.62);
  --lk-shadow: 0 24px 64px -12px rgba(0, 0, 0, 0.7), 0 0 0 1px rgba(255, 255, 255, 0.06);
}
.lk-root *, .lk-root *::before, .lk-root *::after { box-sizing: border-box; }

.lk-overlay {
  position: fixed; inset: 0; z-index: 2147483000;
  display: flex; align-items: center; justify-content: center;
  padding: 16px;
  background: var(--lk-overlay);
  opacity: 0; transition: opacity 180ms ease;
}
.lk-overlay[data-state='open'] { opacity: 1; }
.lk-dialog {
  position: relative;
  width: ${MODAL_WIDTH_PX}px; max-width: 100%; max-height: calc(100vh - 32px); overflow-y: auto;
  background: var(--lk-bg); color: var(--lk-fg);
  border-radius: var(--lk-radius); box-shadow: var(--lk-shadow);
  transform: translateY(8px) scale(0.98);
  transition: transform 220ms cubic-bezier(0.2, 0.9, 0.3, 1.2);
  outline: none;
}
.lk-overlay[data-state='open'] .lk-dialog { transform: none; }
@media (max-width: ${MODAL_BREAKPOINT_PX - 1}px) {
  .lk-overlay { align-items: flex-end; padding: 0; }
  .lk-dialog { width: 100%; border-radius: var(--lk-radius) var(--lk-radius) 0 0; transform: translateY(24px); }
}
.lk-panel {
  width: 100%; max-width: ${MODAL_WIDTH_PX}px;
  background: var(--lk-bg); color: var(--lk-fg);
  border: 1px solid var(--lk-border); border-radius: var(--lk-radius);
}

.lk-screen { display: flex; flex-direction: column; padding: 16px 24px 20px; min-height: 280px; animation: lk-enter 200ms ease both; }
@keyframes lk-enter { from { opacity: 0; transform: translateY(4px); } to { opacity: 1; transform: none; } }
.lk-nav { display: flex; justify-content: space-between; align-items: center; height: 32px; margin: 0 -8px 4px; }
.lk-icon-btn {
  display: inline-flex; align-items: center; justify-content: center;
  width: 32px; height: 32px; padding: 0; border: 0; border-radius: 8px;
  background: transparent; color: var(--lk-fg-muted); cursor: pointer;
  transition: background 120ms ease, color 120ms ease;
}
.lk-icon-btn:hover { background: var(--lk-bg-muted); color: var(--lk-fg); }
.lk-icon-btn:focus-visible { outline: none; box-shadow: var(--lk-ring); }
.lk-icon-btn svg { width: 18px; height: 18px; }

.lk-head { display: flex; flex-direction: column; align-items: center; text-align: center; gap: 6px; margin-bottom: 20px; }
.lk-logo { display: flex; justify-content: center; margin-bottom: 8px; }
.lk-logo img { display: block; max-width: 180px; max-height: 90px; object-fit: contain; }
.lk-title { margin: 0; font-size: 18px; line-height: 1.3; font-weight: 600; letter-spacing: -0.01em; color: var(--lk-fg); }
.lk-subtitle { margin: 0; font-size: 14px; color: var(--lk-fg-muted); overflow-wrap: anywhere; }
.lk-subtitle strong { color: var(--lk-fg); font-weight: 600; }
.lk-body { display: flex; flex-direction: column; gap: 12px; flex: 1; }

.lk-field-label { display: flex; justify-content: space-between; align-items: center; margin-bottom: 6px; font-size: 13px; font-weight: 500; color: var(--lk-fg-muted); }
.lk-chip {
  display: inline-flex; align-items: center; height: 20px; padding: 0 8px; border-radius: 999px;
  font-size: 11px; font-weight: 600; letter-spacing: 0.01em;
  color: var(--lk-accent); background: color-mix(in srgb, var(--lk-accent) 12%, transparent);
}
.lk-input-wrap {
  display: flex; align-items: center; gap: 8px; height: 48px; padding: 0 6px 0 14px;
  background: var(--lk-bg-input); border: 1px solid var(--lk-border-strong); border-radius: var(--lk-radius-sm);
  transition: border-color 120ms ease, box-shadow 120ms ease;
}
.lk-input-wrap:focus-within { border-color: var(--lk-accent); box-shadow: var(--lk-ring); }
.lk-input-wrap[data-invalid='true'] { border-color: var(--lk-error); }
.lk-input-icon { display: inline-flex; color: var(--lk-fg-subtle); }
.lk-input-icon svg { width: 18px; height: 18px; }
.lk-input {
  flex: 1; min-width: 0; height: 100%; padding: 0; border: 0; outline: none; background: transparent;
  font: inherit; font-size: 15px; color: var(--lk-fg);
}
.lk-input::placeholder { color: var(--lk-fg-subtle); }
.lk-phone-country { position: relative; display: inline-flex; align-items: center; flex: none; height: 100%; }
.lk-phone-country-face { display: inline-flex; align-items: center; gap: 6px; font-size: 15px; color: var(--lk-fg); pointer-events: none; }
.lk-phone-country-face svg { width: 14px; height: 14px; color: var(--lk-fg-subtle); }
.lk-phone-country-select { position: absolute; inset: 0; width: 100%; height: 100%; opacity: 0; cursor: pointer; font: inherit; font-size: 15px; }
.lk-country-code {
  display: inline-flex; align-items: center; justify-content: center; min-width: 28px; height: 20px; padding: 0 5px;
  border: 1px solid var(--lk-border-strong); border-radius: 5px; background: var(--lk-bg-muted);
  font-size: 11px; font-weight: 700; letter-spacing: 0.04em; color: var(--lk-fg-muted);
}
.lk-submit {
  height: 36px; padding: 0 12px; border: 0; border-radius: 9px; cursor: pointer;
  font: inherit; font-weight: 600; font-size: 14px;
  color: var(--lk-accent); background: transparent;
  transition: background 120ms ease, opacity 120ms ease;
}
.lk-submit:hover:not(:disabled) { background: color-mix(in srgb, var(--lk-accent) 10%, transparent); }
.lk-submit:focus-visible { outline: none; box-shadow: var(--lk-ring); }
.lk-submit:disabled { color: var(--lk-fg-subtle); cursor: not-allowed; }

.lk-message { margin: 0; font-size: 13px; color: var(--lk-fg-muted); text-align: center; }
.lk-inline-error { margin: 0; font-size: 13px; color: var(--lk-error); }
.lk-email-form .lk-inline-error, .lk-code-error { margin-top: 8px; }
.lk-code-error { text-align: center; }
.lk-alert {
  margin: 0; padding: 10px 12px; border-radius: 10px; font-size: 13px;
  color: var(--lk-error); background: var(--lk-error-bg); text-align: center;
}

.lk-details {
  max-height: ${SIGN_MESSAGE_DETAILS_MAX_HEIGHT_PX}px; overflow-y: auto; padding: 12px 14px;
  background: var(--lk-bg-muted); border: 1px solid var(--lk-border); border-radius: var(--lk-radius-sm);
}
.lk-details-label { margin: 0 0 6px; font-size: 13px; font-weight: 600; color: var(--lk-fg); }
.lk-details-text {
  margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px;
  color: var(--lk-fg-muted); white-space: pre-wrap; overflow-wrap: anywhere;
}

.lk-stack { display: flex; flex-direction: column; gap: 12px; }
.lk-row { display: flex; align-items: center; justify-content: space-between; gap: 8px; }
.lk-field-error { margin-top: 8px; }
.lk-explainer-toggle { align-self: center; font-size: 13px; }
.lk-secret { font-size: 15px; color: var(--lk-fg); text-align: center; letter-spacing: 0.02em; }
.lk-strength { display: flex; align-items: center; gap: 8px; font-size: 13px; color: var(--lk-fg-muted); }
.lk-strength-bars { display: inline-flex; gap: 3px; }
.lk-strength-bars span { width: 18px; height: 4px; border-radius: 2px; background: var(--lk-border); }
.lk-strength[data-strength='weak'] [data-on] { background: var(--lk-error); }
.lk-strength[data-strength='medium'] [data-on] { background: #f79009; }
.lk-strength[data-strength='strong'] [data-on] { background: var(--lk-success); }
.lk-checkbox { display: flex; align-items: flex-start; gap: 10px; font-size: 13px; color: var(--lk-fg-muted); cursor: pointer; }
.lk-checkbox input { margin: 2px 0 0; width: 16px; height: 16px; accent-color: var(--lk-accent); flex: none; }

.lk-code { display: flex; justify-content: center; gap: 8px; margin: 4px 0; }
.lk-code-box {
  width: 44px; height: 54px; padding: 0; text-align: center;
  font: inherit; font-size: 22px; font-weight: 600; font-variant-numeric: tabular-nums;
  color: var(--lk-fg); background: var(--lk-bg-input);
  border: 1px solid var(--lk-border-strong); border-radius: 10px; outline: none; caret-color: var(--lk-accent);
  transition: border-color 120ms ease, box-shadow 120ms ease, background 120ms ease;
}
.lk-code-box:focus { border-color: var(--lk-accent); box-shadow: var(--lk-ring); }
.lk-code-box:disabled { opacity: 0.7; }
.lk-code[data-status='error'] .lk-code-box { border-color: var(--lk-error); color: var(--lk-error); }
.lk-code[data-status='error'] { animation: lk-shake 360ms ease; }
.lk-code[data-status='success'] .lk-code-box { border-color: var(--lk-success); color: var(--lk-success); background: var(--lk-success-bg); }
@keyframes lk-shake { 0%, 100% { transform: none; } 20%, 60% { transform: translateX(-5px); } 40%, 80% { transform: translateX(5px); } }

.lk-resend { display: flex; justify-content: center; align-items: center; gap: 6px; min-height: 24px; font-size: 13px; color: var(--lk-fg-muted); }
.lk-link-btn {
  padding: 0; border: 0; background: none; cursor: pointer;
  font: inherit; font-weight: 600; color: var(--lk-accent); border-radius: 4px;
}
.lk-link-btn:hover:not(:disabled) { text-decoration: underline; }
.lk-link-btn:focus-visible { outline: none; box-shadow: var(--lk-ring); }
.lk-link-btn:disabled { color: var(--lk-fg-subtle); cursor: default; }
.lk-badge {
  display: inline-flex; align-items: center; gap: 4px; height: 22px; padding: 0 8px; border-radius: 999px;
  font-size: 12px; font-weight: 600; color: var(--lk-success); background: var(--lk-success-bg);
  animation: lk-enter 200ms ease both;
}
.lk-badge svg { width: 12px; height: 12px; }

.lk-btn {
  display: inline-flex; align-items: center; justify-content: center; gap: 8px;
  width: 100%; height: 46px; padding: 0 16px; border-radius: var(--lk-radius-sm); cursor: pointer;
  font: inherit; font-size: 15px; font-weight: 600;
  transition: filter 120ms ease, background 120ms ease, transform 80ms ease;
}
.lk-btn:active:not(:disabled) { transform: scale(0.99); }
.lk-btn:focus-visible { outline: none; box-shadow: var(--lk-ring); }
.lk-btn:disabled { opacity: 0.55; cursor: not-allowed; }
.lk-btn-primary { border: 0; color: var(--lk-accent-fg); background: var(--lk-accent); }
.lk-btn-primary:hover:not(:disabled) { filter: brightness(1.06); }
.lk-btn-secondary { border: 1px solid var(--lk-border-strong); color: var(--lk-fg); background: transparent; }
.lk-btn-secondary:hover:not(:disabled) { background: var(--lk-bg-muted); }
.lk-btn-danger { border: 0; color: #ffffff; background: var(--lk-error); }
.lk-btn-danger:hover:not(:disabled) { filter: brightness(1.06); }
.lk-btn-danger .lk-spinner { border-color: rgba(255, 255, 255, 0.35); border-top-color: #ffffff; }

.lk-status { display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 14px; flex: 1; text-align: center; padding: 12px 0; }
.lk-status-icon {
  display: flex; align-items: center; justify-content: center; width: 64px; height: 64px; border-radius: 50%;
  animation: lk-pop 320ms cubic-bezier(0.2, 0.9, 0.3, 1.3) both;
}
.lk-status-icon svg { width: 30px; height: 30px; }
.lk-status-icon[data-tone='success'] { color: var(--lk-success); background: var(--lk-success-bg); }
.lk-status-icon[data-tone='error'] { color: var(--lk-error); background: var(--lk-error-bg); }
.lk-status-icon[data-tone='neutral'] { color: var(--lk-fg-muted); background: var(--lk-bg-muted); }
@keyframes lk-pop { from { opacity: 0; transform: scale(0.6); } to { opacity: 1; transform: none; } }
.lk-actions { display: flex; flex-direction: column; gap: 8px; width: 100%; margin-top: 8px; }

.lk-spinner {
  width: 32px; height: 32px; border-radius: 50%;
  border: 3px solid color-mix(in srgb, var(--lk-accent) 20%, transparent); border-top-color: var(--lk-accent);
  animation: lk-spin 800ms linear infinite;
}
.lk-spinner[data-size='sm'] { width: 16px; height: 16px; border-width: 2px; }
@keyframes lk-spin { to { transform: rotate(360deg); } }

.lk-footer { display: flex; flex-direction: column; align-items: center; gap: 8px; margin-top: 20px; text-align: center; }
.lk-legal { margin: 0; font-size: 12px; color: var(--lk-fg-muted); }
.lk-legal a { color: var(--lk-fg); font-weight: 500; text-decoration: underline; text-underline-offset: 2px; }
.lk-legal a:focus-visible { outline: none; box-shadow: var(--lk-ring); border-radius: 2px; }
.lk-protected { display: inline-flex; align-items: center; gap: 6px; font-size: 12px; color: var(--lk-fg-subtle); }
.lk-protected svg { width: 12px; height: 12px; }
.lk-protected strong { font-weight: 600; color: var(--lk-fg-muted); }

.lk-visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }

@media (prefers-reduced-motion: reduce) {
  .lk-root *, .lk-overlay, .lk-dialog { animation-duration: 1ms !important; transition-duration: 1ms !important; }
}
.lk-options { display: flex; flex-direction: column; gap: 8px; }
.lk-option {
  display: flex; align-items: center; gap: 12px; width: 100%; min-height: 52px; padding: 0 14px;
  border: 1px solid var(--lk-border-strong); border-radius: var(--lk-radius-sm); cursor: pointer;
  font: inherit; font-size: 15px; font-weight: 500; text-align: left; color: var(--lk-fg); background: transparent;
  transition: background 120ms ease, border-color 120ms ease;
}
.lk-option:hover:not(:disabled) { background: var(--lk-bg-muted); }
.lk-option:focus-visible { outline: none; box-shadow: var(--lk-ring); }
.lk-option:disabled { opacity: 0.55; cursor: not-allowed; }
.lk-option svg { width: 20px; height: 20px; color: var(--lk-fg-muted); flex: none; }
.lk-option span { flex: 1; }
.lk-info {
  margin: 0; padding: 12px 14px; border-radius: var(--lk-radius-sm); font-size: 13px; line-height: 1.45;
  color: var(--lk-fg-muted); background: var(--lk-bg-muted);
}
.lk-info strong { display: block; margin-bottom: 4px; color: var(--lk-fg); font-weight: 600; }
.lk-wallet-list { margin: 0 -2px; padding: 0 2px; }
.lk-wallet-list ul { list-style: none; margin: 0; padding: 0; }
.lk-wallet-list .lk-option { height: 48px; min-height: 48px; }
.lk-wallet-row { gap: 10px; }
.lk-wallet-icon { width: 28px; height: 28px; border-radius: 8px; flex: none; object-fit: cover; }
.lk-wallet-initial {
  display: inline-flex; align-items: center; justify-content: center; font-size: 14px; font-weight: 700;
  color: var(--lk-fg); background: var(--lk-bg-muted); flex: none !important;
}
.lk-head .lk-wallet-icon { width: 56px; height: 56px; border-radius: 14px; font-size: 24px; }
.lk-wallet-name { flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.lk-wallet-badges { display: inline-flex; gap: 4px; flex: none !important; }
.lk-wallet-badges .lk-badge { height: 20px; padding: 0 6px; font-size: 11px; color: var(--lk-fg-muted); background: var(--lk-bg-muted); animation: none; }
.lk-qr-wrap { display: flex; justify-content: center; padding: 8px 0; }
.lk-qr { border-radius: 8px; background: #fff; }
.lk-steps { margin: 0; padding-left: 20px; font-size: 14px; line-height: 1.6; color: var(--lk-fg-muted); }
.lk-export-frame { display: block; width: 100%; height: 420px; border: 1px solid var(--lk-border, rgba(127,127,127,.25)); border-radius: 12px; background: transparent; }
.lk-passkey-list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }
.lk-passkey {
  display: flex; align-items: center; justify-content: space-between; gap: 12px; padding: 10px 14px;
  border: 1px solid var(--lk-border-strong); border-radius: var(--lk-radius-sm); font-size: 13px;
}
.lk-passkey-info { display: flex; flex-direction: column; gap: 2px; min-width: 0; color: var(--lk-fg-muted); }
.lk-passkey-info strong { color: var(--lk-fg); font-size: 14px; font-weight: 600; }
.lk-passkey-confirm { display: flex; flex-direction: column; align-items: flex-end; gap: 4px; text-align: right; max-width: 55%; }
.lk-wallet-card {
  display: flex; align-items: center; justify-content: space-between; gap: 12px; padding: 12px 14px;
  border-radius: var(--lk-radius-sm); background: var(--lk-bg-muted); font-size: 13px;
}
.lk-wallet-card-address { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 600; color: var(--lk-fg); }
.lk-wallet-card-balance { color: var(--lk-fg-muted); font-variant-numeric: tabular-nums; }
.lk-tx-rows { margin: 0; border: 1px solid var(--lk-border); border-radius: var(--lk-radius-sm); }
.lk-tx-row { display: flex; align-items: baseline; justify-content: space-between; gap: 12px; padding: 10px 14px; font-size: 13px; }
.lk-tx-row + .lk-tx-row { border-top: 1px solid var(--lk-border); }
.lk-tx-row dt { flex: none; color: var(--lk-fg-muted); }
.lk-tx-row dd {
  display: flex; flex-direction: column; align-items: flex-end; gap: 2px; min-width: 0; margin: 0;
  text-align: right; font-weight: 500; color: var(--lk-fg); font-variant-numeric: tabular-nums; overflow-wrap: anywhere;
}
.lk-tx-usd { font-size: 12px; font-weight: 400; color: var(--lk-fg-muted); }
.lk-tx-address { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: inherit; text-decoration: none; }
a.lk-tx-address:hover { color: var(--lk-accent); text-decoration: underline; }
a.lk-tx-address:focus-visible { outline: none; box-shadow: var(--lk-ring); border-radius: 4px; }
.lk-tx-more { display: flex; flex-direction: column; gap: 8px; }
.lk-tx-more-toggle {
  display: inline-flex; align-items: center; gap: 4px; align-self: flex-start; padding: 0; border: 0; background: none;
  font: inherit; font-size: 13px; font-weight: 600; color: var(--lk-fg-muted); cursor: pointer; border-radius: 4px;
}
.lk-tx-more-toggle svg { width: 14px; height: 14px; transition: transform 120ms ease; }
.lk-tx-more-toggle[aria-expanded='true'] svg { transform: rotate(180deg); }
.lk-tx-more-toggle:focus-visible { outline: none; box-shadow: var(--lk-ring); }
.lk-tx-data { margin-top: 8px; }
.lk-tx-scan { display: flex; align-items: center; justify-content: space-between; gap: 8px; margin: 0; font-size: 12px; color: var(--lk-fg-muted); }
.lk-tx-note { margin: 0; font-size: 13px; color: var(--lk-fg-muted); text-align: center; }
.lk-warning {
  display: flex; flex-direction: column; align-items: flex-start; gap: 6px; margin: 0; padding: 10px 12px;
  border-radius: 10px; font-size: 13px; color: #b54708; background: color-mix(in srgb, #f79009 12%, transparent);
}
.lk-root[data-lk-theme='dark'] .lk-warning { color: #fdb022; }
.lk-root .lk-warning[data-tone='danger'] { color: var(--lk-error); background: var(--lk-error-bg); }
.lk-warning strong { font-weight: 600; }
.lk-warning .lk-checkbox, .lk-warning .lk-link-btn { color: inherit; }
.lk-tx-hash {
  display: flex; align-items: center; gap: 8px; padding: 8px 8px 8px 14px;
  border: 1px solid var(--lk-border); border-radius: var(--lk-radius-sm); font-size: 13px;
}
.lk-tx-hash-label { flex: 1; color: var(--lk-fg-muted); }
.lk-tx-hash-value { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--lk-fg); }
.lk-tx-hash-actions { display: inline-flex; align-items: center; gap: 4px; }
.lk-tx-hash-actions a { font-size: 13px; text-decoration: none; }
`

const STYLE_ID = 'latchkey-styles'

/** Adds the stylesheet to the document once; called when the modal chunk renders. */
export function injectStyles(doc: Document | undefined = globalThis.document): void {
  if (!doc || doc.getElementById(STYLE_ID)) return
  const style = doc.createElement('style')
  style.id = STYLE_ID
  style.textContent = css
  doc.head.appendChild(style)
}
