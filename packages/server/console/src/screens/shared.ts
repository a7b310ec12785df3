import type { LinkedAccount } from '../api.ts'

/** Reports a refused read to the shell (a 401 signs out), then rethrows it for the screen. */
export const fail =
  (onError: (error: Error) => void) =>
  (error: Error): never => {
    onError(error)
    throw error
  }

/** What a linked account is called in a list: its address, number, username or type. */
export function accountLabel(account: LinkedAccount): string {
  for (const field of ['address', 'number', 'email', 'username', 'custom_user_id', 'subject'])
    if (typeof account[field] === 'string') return `${account.type}: ${account[field]}`
  return account.type
}

/** A time as the console shows it (the browser's locale and zone). */
export const time = (ms: number) => new Date(ms).toLocaleString()
