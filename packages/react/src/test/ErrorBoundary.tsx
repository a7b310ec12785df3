import { Component, type ReactNode } from 'react'

/** Catches what a subtree throws, for tests of errors the provider raises. */
export class ErrorBoundary extends Component<
  { children: ReactNode; onError?: (error: unknown) => void },
  { error: unknown }
> {
  override state = { error: null as unknown }
  static getDerivedStateFromError(error: unknown) {
    return { error }
  }
  override componentDidCatch(error: unknown) {
    this.props.onError?.(error)
  }
  override render() {
    if (this.state.error) return <p role="alert">{(this.state.error as Error).message}</p>
    return this.props.children
  }
}
