import type { LoginMethod } from '@latchkey/core'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { MethodButton } from './LandingScreen.tsx'

export interface MoreOptionsScreenProps {
  /** 'Other socials' or 'More options'. */
  title: string
  methods: LoginMethod[]
  recentMethod: LoginMethod | null
  onMethod(method: LoginMethod): void
  onBack(): void
}

/** The landing screen's overflow (spec 01 §2): the methods that did not fit, one button each. */
export function MoreOptionsScreen({
  title,
  methods,
  recentMethod,
  onMethod,
  onBack,
}: MoreOptionsScreenProps) {
  return (
    <ScreenLayout title={title} onBack={onBack}>
      <div className="lk-options">
        {methods.map((method) => (
          <MethodButton
            key={method}
            method={method}
            recent={recentMethod === method}
            onClick={() => onMethod(method)}
          />
        ))}
      </div>
    </ScreenLayout>
  )
}
