import { useId, useState } from 'react'
import type { Hex } from 'viem'
import { ChevronDownIcon } from '../../components/icons.tsx'
import { argsText } from '../ethereum-display.ts'

/** 'Details', folded: the decoded function, its arguments and the raw calldata. */
export function DetailsRow({
  functionName,
  args,
  data,
}: {
  functionName?: string
  args: readonly unknown[]
  data?: Hex
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
        Details
        <ChevronDownIcon />
      </button>
      {open && (
        <div className="lk-details" id={id} data-testid="lk-tx-details">
          {functionName && <p className="lk-details-label">{functionName}</p>}
          {args.length > 0 && <pre className="lk-details-text">{argsText(args)}</pre>}
          {data && data !== '0x' && <pre className="lk-details-text lk-tx-data">{data}</pre>}
        </div>
      )}
    </div>
  )
}
