import { APP_ID_LENGTH } from './constants.ts'

export * from './validation-input.ts'

/** App ids are 25 lowercase alphanumerics (spec 01 §5). */
export function isValidAppId(value: unknown): value is string {
  return typeof value === 'string' && value.length === APP_ID_LENGTH && /^[a-z0-9]+$/.test(value)
}
