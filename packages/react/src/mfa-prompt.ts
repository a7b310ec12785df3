import { getMfaPrompter } from '@latchkey/core'
import { resolveConfig } from './config.ts'
import type { LatchkeyInstance } from './instance.ts'

/**
 * Answers the client's MFA challenges (docs/mfa.md): a wallet action that
 * needs MFA waits for the user instead of failing. The modal draws the
 * verification over its current screen, opening for it if closed — unless
 * the app set `mfa.noPromptOnMfaRequired`, in which case it draws its own
 * from `useMfa()`. Returns what stops it.
 */
export function answerMfaChallenges(instance: LatchkeyInstance): () => void {
  const prompter = getMfaPrompter(instance.client)
  const withdraw = prompter.handle()
  const sync = () => {
    const { hostConfig, appConfig } = instance.getUiState()
    const prompts = resolveConfig(hostConfig, appConfig).mfaPrompts
    instance.setMfaOpen(prompts && prompter.getChallenge() !== null)
  }
  const unsubscribe = prompter.subscribe(sync)
  sync()
  return () => {
    unsubscribe()
    withdraw()
    instance.setMfaOpen(false)
  }
}
