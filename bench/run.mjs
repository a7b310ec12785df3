// `npm run bench`: bundle size and server throughput, side by side in one run.
import { measureBundle } from './bundle.mjs'
import { measureConfirmScreen } from './confirm-screen.mjs'
import { measureEnclave } from './enclave.mjs'
import { measureServer } from './server.mjs'

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
const bundle = await measureBundle()
const server = await measureServer()
const enclave = await measureEnclave()
const confirm = await measureConfirmScreen()

const rows = [
  [
    'SDK JS before the modal opens (gzip, minus React)',
    kb(bundle.sdkBeforeModalBytes),
    '≤ 10 KB',
    bundle.sdkBeforeModalBytes <= 10 * 1024,
  ],
  [
    'every chunk of the host app together (gzip, React included)',
    kb(bundle.hostWithSdkBytes + bundle.modalLazyBytes),
    '≤ 400 KB',
    bundle.hostWithSdkBytes + bundle.modalLazyBytes <= 400 * 1024,
  ],
  [
    '  host app with SDK / React alone (gzip)',
    `${kb(bundle.hostWithSdkBytes)} / ${kb(bundle.reactAloneBytes)}`,
    '',
    null,
  ],
  [
    '  every lazy chunk: modal, wallets, funding… (gzip)',
    `${kb(bundle.modalLazyBytes)} in ${bundle.lazyChunks} chunks`,
    '',
    null,
  ],
  [
    'Refresh-token requests/s (one core)',
    String(server.refreshPerSecond),
    '≥ 2,000',
    server.refreshPerSecond >= 2000,
  ],
  [
    'Email authentications/s (one core)',
    String(server.emailAuthPerSecond),
    '≥ 500',
    server.emailAuthPerSecond >= 500,
  ],
  [
    '  p99 latency refresh / email auth',
    `${server.refreshLatencyP99Ms} ms / ${server.emailAuthLatencyP99Ms} ms`,
    '',
    null,
  ],
  [`Enclave ready after page load (median of ${enclave.runs})`, `${enclave.readyMs} ms`, '', null],
  ['Create wallet, Ethereum + Solana (median)', `${enclave.createMs} ms`, '', null],
  ['Sign message, personal_sign (median)', `${enclave.signMs} ms`, '', null],
  [
    '  sign cold (auth share fetched), MFA on (median)',
    `${enclave.signColdMs} ms`,
    '≤ 60 ms',
    enclave.signColdMs <= 60,
  ],
  [
    `  sign with MFA verified (warm, median of ${enclave.warmSignatures})`,
    `${enclave.signWarmMs} ms`,
    '≤ 5 ms',
    enclave.signWarmMs <= 5,
  ],
  ['  verify TOTP (median)', `${enclave.verifyTotpMs} ms`, '', null],
  [
    `Ethereum transfer on Anvil: enclave sign → receipt (median of ${enclave.transactionRuns})`,
    `${enclave.ethereumSendMs} ms`,
    '',
    null,
  ],
  ['Send ETH: request → confirm screen ready (median)', `${confirm.confirmReadyMs} ms`, '', null],
  ['  confirm → receipt on Anvil (median)', `${confirm.confirmToReceiptMs} ms`, '', null],
  ['Solana transaction, enclave signature (median)', `${enclave.solanaSignMs} ms`, '', null],
  [
    '  non-2xx or errors refresh / email auth',
    `${server.refreshErrors} / ${server.emailAuthErrors}`,
    '0',
    server.refreshErrors + server.emailAuthErrors === 0,
  ],
]
const width = Math.max(...rows.map((r) => r[0].length))
console.log(
  `\nLatchkey benchmarks (${new Date().toISOString()}, node ${process.version}, server ${server.pinned ? 'pinned to core 0' : 'not pinned'})\n`,
)
for (const [name, value, target, met] of rows)
  console.log(
    `${name.padEnd(width)}  ${value.padStart(22)}  ${target.padEnd(8)} ${met === null ? '' : met ? 'met' : 'MISSED'}`,
  )
