/**
 * Wire schema of guest login lives in @latchkey/protocol (schemas/guest.ts);
 * re-exported next to the route, as every login method does.
 */
export { guestAuthenticateRequestSchema } from '@latchkey/protocol'
export { GUEST_ACCOUNT_TYPE } from '../../users/service.ts'
