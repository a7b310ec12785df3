import { type ComponentType, lazy, Suspense, useEffect } from 'react'
import { useUiState } from '../context.ts'
import type { LatchkeyInstance } from '../store.ts'
import type { LoginPanelProps } from './LoginPanel.tsx'

// Everything under modal/ is reached only through these dynamic imports, so the
// provider's initial chunk carries none of the screens or styles.
const loadChunk = () => import('./chunk.ts')

const LatchkeyModal = lazy(() => loadChunk().then((chunk) => ({ default: chunk.LatchkeyModal })))
// Pure: an app that never draws the panel keeps none of it in its first chunk.
const LoginPanel = /* @__PURE__ */ lazy(() =>
  loadChunk().then((chunk) => ({ default: chunk.LoginPanel })),
) as ComponentType<LoginPanelProps>

/** Fetches the modal chunk while the browser is idle, so the first `login()` opens at once. */
export function preloadModal(): () => void {
  const idle = (globalThis as { requestIdleCallback?: (cb: () => void) => number })
    .requestIdleCallback
  const run = () => void loadChunk().catch(() => {})
  if (idle) {
    const id = idle(run)
    return () =>
      (globalThis as { cancelIdleCallback?: (id: number) => void }).cancelIdleCallback?.(id)
  }
  const id = setTimeout(run, 2_000)
  return () => clearTimeout(id)
}

/** Mounts the dialog the first time `login()` asks for it. */
export function ModalHost({ instance, preload }: { instance: LatchkeyInstance; preload: boolean }) {
  const { requested } = useUiState(instance)
  useEffect(() => (preload ? preloadModal() : undefined), [preload])
  if (!requested) return null
  return (
    <Suspense fallback={null}>
      <LatchkeyModal instance={instance} />
    </Suspense>
  )
}

/** The standalone panel, loaded on demand like the dialog. */
export function LazyLoginPanel(props: LoginPanelProps) {
  return (
    <Suspense fallback={null}>
      <LoginPanel {...props} />
    </Suspense>
  )
}
