/**
 * The export page's DOM. Built with `createElement`/`textContent` only (no
 * HTML strings), styled through CSSOM (`element.style`), which the page's CSP
 * (`default-src 'none'`, no `style-src`) allows. The private key and the
 * phrase enter the DOM only while the user has pressed "Reveal".
 */

export type Theme = 'light' | 'dark'

interface Palette {
  background: string
  text: string
  muted: string
  border: string
  warningBackground: string
  warningText: string
  buttonBackground: string
  buttonText: string
  secondaryBackground: string
  codeBackground: string
  errorText: string
}

const palettes: Record<Theme, Palette> = {
  light: {
    background: '#ffffff',
    text: '#111827',
    muted: '#6b7280',
    border: '#e5e7eb',
    warningBackground: '#fef3c7',
    warningText: '#92400e',
    buttonBackground: '#111827',
    buttonText: '#ffffff',
    secondaryBackground: '#f3f4f6',
    codeBackground: '#f9fafb',
    errorText: '#b91c1c',
  },
  dark: {
    background: '#111827',
    text: '#f9fafb',
    muted: '#9ca3af',
    border: '#374151',
    warningBackground: '#451a03',
    warningText: '#fde68a',
    buttonBackground: '#f9fafb',
    buttonText: '#111827',
    secondaryBackground: '#1f2937',
    codeBackground: '#0b1220',
    errorText: '#fca5a5',
  },
}

type Role = 'warning' | 'primary' | 'secondary' | 'code' | 'muted' | 'error'

export const WARNING_TEXT = 'Never share your private key or seed phrase with anyone.'
export const RECOVERY_REQUIRED_TEXT = 'Recover your wallet on this device first'
export const COPIED_TEXT = 'Copied'

/** One secret the page can copy and reveal: never kept in the DOM unless revealed. */
export interface SecretItem {
  /** `private-key` or `seed-phrase`: used in `data-action` attributes. */
  id: 'private-key' | 'seed-phrase'
  label: string
  copyLabel: string
  value: string
}

export interface ExportView {
  setTheme(theme: Theme): void
  showLoading(): void
  showMessage(title: string, detail?: string): void
  showWallet(options: {
    address: string
    items: SecretItem[]
    copy: (item: SecretItem) => Promise<boolean>
  }): void
  /** Drops the secrets (their strings stay only if the GC keeps them). */
  clear(): void
}

export function createExportView(doc: Document, initialTheme: Theme): ExportView {
  let theme = initialTheme
  const painted = new Map<HTMLElement, Role>()
  const timers = new Set<ReturnType<typeof setTimeout>>()
  const root = doc.createElement('main')
  root.id = 'latchkey-export'
  doc.body.replaceChildren(root)

  function css(el: HTMLElement, styles: Record<string, string>) {
    for (const [name, value] of Object.entries(styles)) el.style.setProperty(name, value)
  }

  function paintOne(el: HTMLElement, role: Role) {
    const p = palettes[theme]
    if (role === 'warning') css(el, { background: p.warningBackground, color: p.warningText })
    else if (role === 'primary')
      css(el, { background: p.buttonBackground, color: p.buttonText, border: 'none' })
    else if (role === 'secondary')
      css(el, { background: p.secondaryBackground, color: p.text, border: `1px solid ${p.border}` })
    else if (role === 'code')
      css(el, { background: p.codeBackground, color: p.text, border: `1px solid ${p.border}` })
    else if (role === 'muted') css(el, { color: p.muted })
    else css(el, { color: p.errorText })
  }

  function paint() {
    const p = palettes[theme]
    css(doc.body, {
      margin: '0',
      background: p.background,
      color: p.text,
      'font-family':
        'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      'font-size': '14px',
      'line-height': '1.4',
      'color-scheme': theme,
    })
    css(root, { padding: '16px', display: 'flex', 'flex-direction': 'column', gap: '12px' })
    for (const [el, role] of painted) paintOne(el, role)
  }

  function el<K extends keyof HTMLElementTagNameMap>(
    tag: K,
    options: { text?: string; role?: Role; style?: Record<string, string> } = {},
  ): HTMLElementTagNameMap[K] {
    const node = doc.createElement(tag)
    if (options.text !== undefined) node.textContent = options.text
    if (options.style) css(node, options.style)
    if (options.role) {
      painted.set(node, options.role)
      paintOne(node, options.role)
    }
    return node
  }

  function reset() {
    for (const t of timers) clearTimeout(t)
    timers.clear()
    painted.clear()
    root.replaceChildren()
  }

  const codeStyle = {
    display: 'block',
    padding: '8px',
    'border-radius': '6px',
    'font-family': 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    'font-size': '12px',
    'word-break': 'break-all',
    'user-select': 'all',
  }
  const buttonStyle = {
    padding: '8px 12px',
    'border-radius': '6px',
    'font-size': '14px',
    'font-weight': '600',
    cursor: 'pointer',
    'font-family': 'inherit',
  }

  function warning() {
    const box = el('p', {
      text: WARNING_TEXT,
      role: 'warning',
      style: { margin: '0', padding: '10px 12px', 'border-radius': '8px', 'font-weight': '600' },
    })
    box.setAttribute('role', 'alert')
    box.dataset.part = 'warning'
    return box
  }

  function secretRow(item: SecretItem, copy: (item: SecretItem) => Promise<boolean>) {
    const section = el('section', {
      style: { display: 'flex', 'flex-direction': 'column', gap: '6px' },
    })
    section.dataset.part = item.id
    const buttons = el('div', { style: { display: 'flex', gap: '8px', 'flex-wrap': 'wrap' } })
    const copyButton = el('button', { text: item.copyLabel, role: 'primary', style: buttonStyle })
    copyButton.type = 'button'
    copyButton.dataset.action = `copy-${item.id}`
    const revealButton = el('button', { text: 'Reveal', role: 'secondary', style: buttonStyle })
    revealButton.type = 'button'
    revealButton.dataset.action = `reveal-${item.id}`
    revealButton.setAttribute('aria-pressed', 'false')
    const shown = el('code', { role: 'code', style: codeStyle })
    shown.dataset.part = `${item.id}-value`
    shown.hidden = true

    copyButton.addEventListener('click', () => {
      void copy(item).then((ok) => {
        copyButton.textContent = ok ? COPIED_TEXT : 'Copy failed: reveal it and copy by hand'
        const timer = setTimeout(() => {
          timers.delete(timer)
          copyButton.textContent = item.copyLabel
        }, 2_000)
        timers.add(timer)
      })
    })
    revealButton.addEventListener('click', () => {
      const reveal = shown.hidden
      // Only while revealed does the value exist as DOM text.
      shown.textContent = reveal ? item.value : ''
      shown.hidden = !reveal
      revealButton.textContent = reveal ? 'Hide' : 'Reveal'
      revealButton.setAttribute('aria-pressed', String(reveal))
    })
    buttons.append(copyButton, revealButton)
    section.append(el('strong', { text: item.label }), buttons, shown)
    return section
  }

  paint()
  return {
    setTheme(next) {
      theme = next
      paint()
    },
    showLoading() {
      reset()
      root.append(warning(), el('p', { text: 'Loading...', role: 'muted', style: { margin: '0' } }))
    },
    showMessage(title, detail) {
      reset()
      const heading = el('p', {
        text: title,
        role: 'error',
        style: { margin: '0', 'font-weight': '600' },
      })
      heading.dataset.part = 'message'
      heading.setAttribute('role', 'alert')
      root.append(heading)
      if (detail) root.append(el('p', { text: detail, role: 'muted', style: { margin: '0' } }))
    },
    showWallet({ address, items, copy }) {
      reset()
      const intro = el('p', {
        text:
          items.length > 1
            ? 'Copy either your private key or your seed phrase.'
            : 'Copy your private key.',
        style: { margin: '0' },
      })
      const addressBlock = el('div', {
        style: { display: 'flex', 'flex-direction': 'column', gap: '4px' },
      })
      const addressValue = el('code', { text: address, role: 'code', style: codeStyle })
      addressValue.dataset.part = 'address'
      addressBlock.append(el('span', { text: 'Wallet address', role: 'muted' }), addressValue)
      root.append(warning(), intro, addressBlock, ...items.map((item) => secretRow(item, copy)))
    },
    clear() {
      reset()
    },
  }
}
