import { useCallback, useEffect, useState } from 'react'

/** The state of one read: loading, its data, or its error; `reload` reads again. */
export interface Loaded<T> {
  data: T | undefined
  error: Error | undefined
  reload: () => void
}

/** Runs `load` when `key` changes (and on `reload`), keeping the latest answer only. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error }>({})
  const [round, setRound] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: reads again when the caller's key (or reload) changes, not on every new `load` closure
  useEffect(() => {
    let current = true
    setState({})
    load().then(
      (data) => current && setState({ data }),
      (error: Error) => current && setState({ error }),
    )
    return () => {
      current = false
    }
  }, [key, round])
  const reload = useCallback(() => setRound((n) => n + 1), [])
  return { data: state.data, error: state.error, reload }
}
