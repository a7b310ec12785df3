import type { Hex } from 'viem'
import { argsText } from '../ethereum-display.ts'
import { Disclosure } from './Disclosure.tsx'

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
  return (
    <Disclosure label="Details">
      {(id) => (
        <div className="lk-details" id={id} data-testid="lk-tx-details">
          {functionName && <p className="lk-details-label">{functionName}</p>}
          {args.length > 0 && <pre className="lk-details-text">{argsText(args)}</pre>}
          {data && data !== '0x' && <pre className="lk-details-text lk-tx-data">{data}</pre>}
        </div>
      )}
    </Disclosure>
  )
}
