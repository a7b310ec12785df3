import { KeyIcon, LockIcon, PhoneIcon } from '../../components/icons.tsx'
import type { MfaMethod } from './types.ts'

/** The icon drawn beside a method's name (decorative: the name says it). */
export function MfaMethodIcon({ method }: { method: MfaMethod }) {
  if (method === 'passkey') return <KeyIcon />
  if (method === 'sms') return <PhoneIcon />
  return <LockIcon />
}
