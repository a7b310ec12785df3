/** What a user sees for an error: a title and, where the spec gives one, a detail line. */
export interface UserMessage {
  title: string
  detail?: string
  /** The spec marks these as worth a "Retry"/"Try again" button. */
  retryable?: boolean
  /**
   * Spec 01 §8: the user sees the server's own message for this code (the
   * server words it for users); `title` is shown only when the server sent none.
   */
  fromServer?: boolean
}
