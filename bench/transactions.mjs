// Transaction timings for `npm run bench`, in the enclave bench's page and
// session: an Ethereum transfer on Anvil — the enclave signs the complete
// transaction, the page sends it and reads the receipt — and a Solana
// transaction signed in the enclave (a one-instruction transfer message).
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

/** Anvil (the binary `@foundry-rs/anvil` ships) on `port`; resolves once it answers. */
export async function startAnvil(port = 18545) {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}/package.json`
  const binary = join(dirname(require.resolve(pkg)), 'bin', 'anvil')
  const child = spawn(binary, ['--port', String(port), '--host', '127.0.0.1', '--silent'], {
    stdio: 'ignore',
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      })
      return { url, stop: () => child.kill('SIGTERM') }
    } catch {
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  child.kill('SIGKILL')
  throw new Error('anvil did not start')
}

/**
 * In the bench page (`window.enclaveRequest`): `sends` Ethereum transfers
 * (sign in the enclave → eth_sendRawTransaction → receipt) and `signs`
 * Solana transaction signatures; each timing in ms.
 */
export function measureTransactionsInPage(page, { accessToken, anvilUrl, sends = 5, signs = 5 }) {
  return page.evaluate(
    async ({ accessToken, anvilUrl, sends, signs }) => {
      const rpc = async (method, params) => {
        const response = await fetch(anvilUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        })
        return (await response.json()).result
      }
      const { user } = await window.enclaveRequest('latchkey:wallets:create', {
        access_token: accessToken,
        chain_types: ['ethereum', 'solana'],
        recovery: { method: 'latchkey' },
      })
      const wallet = (chain) =>
        user.linked_accounts.find((a) => a.type === 'wallet' && a.chain_type === chain)
      const eth = wallet('ethereum')
      const sol = wallet('solana')
      await rpc('anvil_setBalance', [eth.address, '0x8ac7230489e80000'])
      const chainId = Number.parseInt(await rpc('eth_chainId', []), 16)
      const ethereum = []
      for (let nonce = 0; nonce < sends; nonce++) {
        const start = performance.now()
        const { result } = await window.enclaveRequest('latchkey:wallets:rpc', {
          access_token: accessToken,
          entropy_id: eth.entropy_id,
          chain_type: 'ethereum',
          wallet_index: 0,
          request: {
            method: 'eth_signTransaction',
            params: [
              {
                from: eth.address,
                chainId,
                type: 'eip1559',
                to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
                value: '0x1',
                nonce,
                gas: '0x5208',
                maxFeePerGas: '0x77359400',
                maxPriorityFeePerGas: '0x1',
              },
            ],
          },
        })
        const hash = await rpc('eth_sendRawTransaction', [result])
        while (!(await rpc('eth_getTransactionReceipt', [hash]))) {}
        ethereum.push(performance.now() - start)
      }
      // base58 → bytes, for the Solana wallet's public key.
      const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
      let n = 0n
      for (const c of sol.address) n = n * 58n + BigInt(ALPHABET.indexOf(c))
      const key = new Uint8Array(32)
      for (let i = 31; i >= 0; i--, n >>= 8n) key[i] = Number(n & 0xffn)
      const message = [1, 0, 1, 2, ...key, ...new Uint8Array(32), ...new Uint8Array(32).fill(7)]
      message.push(1, 1, 1, 0, 4, 2, 0, 0, 0)
      const wire = new Uint8Array([1, ...new Uint8Array(64), ...message])
      const b64 = btoa(String.fromCharCode(...wire))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '')
      const solana = []
      for (let i = 0; i < signs; i++) {
        const start = performance.now()
        await window.enclaveRequest('latchkey:wallets:rpc', {
          access_token: accessToken,
          entropy_id: sol.entropy_id,
          chain_type: 'solana',
          wallet_index: 0,
          request: { method: 'signTransaction', params: { transaction: b64 } },
        })
        solana.push(performance.now() - start)
      }
      return { ethereum, solana }
    },
    { accessToken, anvilUrl, sends, signs },
  )
}
