import { injectStyles } from '../modal/styles.ts'

// The provider page's own rules, on top of the modal's stylesheet (whose
// buttons, titles and alerts it uses). Loaded with it, lazily, only on a page
// load that carries a cross-app request: never in the host's first load.
const css = `
.lk-cross-app-page { display: flex; justify-content: center; padding: 24px 16px; }
.lk-cross-app-card {
  display: flex; flex-direction: column; align-items: center; gap: 10px;
  width: 100%; max-width: 400px; padding: 24px; box-sizing: border-box; text-align: center;
  background: var(--lk-bg); border: 1px solid var(--lk-border); border-radius: var(--lk-radius);
  box-shadow: var(--lk-shadow);
}
.lk-cross-app-logo { width: 48px; height: 48px; border-radius: 12px; object-fit: cover; }
`

const STYLE_ID = 'latchkey-cross-app-page-styles'

/** Adds the modal's stylesheet and the provider page's rules to the document, once. */
export function injectCrossAppPageStyles(doc: Document | undefined = globalThis.document): void {
  injectStyles(doc)
  if (!doc || doc.getElementById(STYLE_ID)) return
  const style = doc.createElement('style')
  style.id = STYLE_ID
  style.textContent = css
  doc.head.appendChild(style)
}
