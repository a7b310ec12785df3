export function LoadingState() {
  return (
    <section className="card card-center" aria-busy="true">
      <span className="spinner" role="status" aria-label="Loading" />
      <p className="muted">Checking your session…</p>
    </section>
  )
}
