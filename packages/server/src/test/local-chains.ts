// `npm start`'s local chains beyond Anvil itself: deploys the test ERC-20,
// ERC-721 and ERC-1155 to the Anvil node at argv[2] (from its first dev
// account, which also gets the first tokens), and runs the Solana ledger
// stand-in (LiteSVM behind Solana's JSON-RPC: there is no
// solana-test-validator here) on port argv[3]. Prints one JSON line with
// the addresses and URL, then serves until it is stopped.
//   node --conditions=latchkey-source --import tsx packages/server/src/test/local-chains.ts http://127.0.0.1:8545 8899
import { deployTestTokens } from './chains.ts'
import { startSolanaLedger } from './solana-ledger.ts'

const [anvilUrl = 'http://127.0.0.1:8545', solanaPort = '8899'] = process.argv.slice(2)
// Anvil's first dev account.
const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

const tokens = await deployTestTokens(anvilUrl, { mintTo: DEV_ACCOUNT })
const ledger = await startSolanaLedger({ port: Number(solanaPort) })
console.log(
  JSON.stringify({
    erc20: tokens.erc20.address,
    erc721: tokens.erc721.address,
    erc1155: tokens.erc1155.address,
    solanaRpcUrl: ledger.rpcUrl,
  }),
)
const stop = () => void ledger.stop().then(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
