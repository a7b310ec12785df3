export function Spinner({ size, label }: { size?: 'sm'; label?: string }) {
  if (label)
    return <span className="lk-spinner" data-size={size} role="status" aria-label={label} />
  return <span className="lk-spinner" data-size={size} aria-hidden="true" />
}
