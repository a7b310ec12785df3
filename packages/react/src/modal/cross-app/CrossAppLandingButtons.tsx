import { type CrossAppPopup, getCrossAppDetails, openCrossAppPopup } from '@latchkey/core'
import type { CrossAppDetails } from '@latchkey/protocol/schemas'
import { useEffect, useState } from 'react'
import { useLatchkeyInstance } from '../../context.ts'

export interface CrossAppLandingButtonsProps {
  /** Provider app ids (`latchkey:{appId}` entries), in order. */
  providers: string[]
  recent: boolean
  onChoose(appId: string, popup: CrossAppPopup | null): void
}

/**
 * One landing row per `latchkey:{appId}` entry: 'Continue with {app}' with the
 * provider's logo, read from its cross-app details (spec 03 §7). A provider
 * that shares nothing ('Invalid connected app') draws no row. The popup opens
 * within the click, before anything awaits.
 */
export function CrossAppLandingButtons({
  providers,
  recent,
  onChoose,
}: CrossAppLandingButtonsProps) {
  const { client } = useLatchkeyInstance()
  const [details, setDetails] = useState<Record<string, CrossAppDetails | null>>({})
  const key = providers.join(',')
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the list
  useEffect(() => {
    let live = true
    for (const id of providers)
      getCrossAppDetails(client, id).then(
        (d) => live && setDetails((all) => ({ ...all, [id]: d })),
        () => live && setDetails((all) => ({ ...all, [id]: null })),
      )
    return () => {
      live = false
    }
  }, [client, key])
  return (
    <>
      {providers.map((id) => {
        const d = details[id]
        if (!d) return null
        return (
          <button
            key={id}
            type="button"
            className="lk-option"
            data-method={`latchkey:${id}`}
            onClick={() => onChoose(id, openCrossAppPopup())}
          >
            {d.logo_url && <img src={d.logo_url} alt="" width={24} height={24} />}
            <span>Continue with {d.name}</span>
            {recent && <span className="lk-chip">Recent</span>}
          </button>
        )
      })}
    </>
  )
}
