// The one entry of the lazily loaded modal chunk: dialog, standalone panel, screens, styles.
export { default as LatchkeyModal } from './LatchkeyModal.tsx'
export { default as LoginPanel } from './LoginPanel.tsx'
