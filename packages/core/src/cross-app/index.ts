export {
  type CrossAppLoginOptions,
  type CrossAppLoginReturnType,
  getCrossAppDetails,
  loginWithCrossApp,
  readCrossAppGrant,
} from './login.ts'
export { type CrossAppPopup, openCrossAppPopup, waitForCrossAppMessage } from './popup.ts'
export {
  authorizeCrossAppRequest,
  type CrossAppPageRequest,
  getCrossAppRequester,
  postCrossAppAnswer,
  readCrossAppPageRequest,
  verifyCrossAppTransact,
} from './provider.ts'
export { type CrossAppRpcOptions, crossAppAccountOf, crossAppRpc } from './transact.ts'
