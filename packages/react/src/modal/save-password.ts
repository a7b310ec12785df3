import { DOWNLOAD_URL_REVOKE_DELAY_MS } from '@latchkey/protocol/constants'

export const PASSWORD_FILE_NAME = 'latchkey-recovery-password.txt'

/**
 * Spec 02 "Save": downloads `text` as a text file through a Blob URL, revoked
 * 5 s later (long enough for the browser to start the download).
 */
export function downloadTextFile(text: string, fileName = PASSWORD_FILE_NAME): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  link.style.display = 'none'
  document.body.appendChild(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_URL_REVOKE_DELAY_MS)
}
