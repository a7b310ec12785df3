import { type ReactNode, useState } from 'react'

/**
 * A button whose action runs only after a second, explicit click in a
 * confirmation box (for what cannot be undone).
 */
export function Confirm(props: {
  label: string
  title: string
  confirmLabel: string
  children: ReactNode
  onConfirm: () => void
}) {
  const [open, setOpen] = useState(false)
  if (!open)
    return (
      <button type="button" className="danger" onClick={() => setOpen(true)}>
        {props.label}
      </button>
    )
  return (
    <div className="card danger-zone" role="alertdialog" aria-label={props.title}>
      <p>{props.children}</p>
      <div className="row">
        <button
          type="button"
          className="danger"
          onClick={() => {
            setOpen(false)
            props.onConfirm()
          }}
        >
          {props.confirmLabel}
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </div>
  )
}
