import { type ReactNode, useId, useState } from 'react'
import { ChevronDownIcon } from '../../components/icons.tsx'

/** A folded section of a confirm screen ('Details', 'Advanced'): `children(id)` draws it open. */
export function Disclosure({
  label,
  children,
}: {
  label: string
  children(id: string): ReactNode
}) {
  const [open, setOpen] = useState(false)
  const id = useId()
  return (
    <div className="lk-tx-more">
      <button
        type="button"
        className="lk-tx-more-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((value) => !value)}
      >
        {label}
        <ChevronDownIcon />
      </button>
      {open && children(id)}
    </div>
  )
}
