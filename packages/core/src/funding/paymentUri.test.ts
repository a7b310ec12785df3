import { describe, expect, it } from 'vitest'
import { formatNetworkName } from './formatNetworkName.ts'
import { paymentUri } from './paymentUri.ts'
import { USDC_SOLANA_MINT, usdcAddress } from './usdc.ts'

const wallet = '0xc216eD2D6c295579718dbd4a797845CdA70B3C36'
const solanaWallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'

// Spec 03 §2 "Receive funds": a QR code of the chain and address; for
// Solana USDC the QR address adds the token parameter.
describe('paymentUri (EIP-681)', () => {
  it('names the wallet and chain, with the native amount in wei', () => {
    expect(
      paymentUri({ chainType: 'ethereum', address: wallet, chainId: 8453, amount: '0.01' }),
    ).toBe(`ethereum:${wallet}@8453?value=10000000000000000`)
  })

  it('leaves the amount to the payer when none is asked', () => {
    expect(paymentUri({ chainType: 'ethereum', address: wallet, chainId: 1 })).toBe(
      `ethereum:${wallet}@1`,
    )
  })

  it('calls transfer on the token for USDC, the amount in 6-decimal units', () => {
    const usdc = usdcAddress(1) as string
    expect(
      paymentUri({
        chainType: 'ethereum',
        address: wallet,
        chainId: 1,
        amount: '5.25',
        token: { address: usdc, decimals: 6 },
      }),
    ).toBe(`ethereum:${usdc}@1/transfer?address=${wallet}&uint256=5250000`)
    expect(
      paymentUri({
        chainType: 'ethereum',
        address: wallet,
        chainId: 1,
        token: { address: usdc, decimals: 6 },
      }),
    ).toBe(`ethereum:${usdc}@1/transfer?address=${wallet}`)
  })

  it('refuses an amount that is not a decimal', () => {
    expect(() =>
      paymentUri({ chainType: 'ethereum', address: wallet, chainId: 1, amount: '1e18' }),
    ).toThrow(/not a decimal amount/)
  })
})

describe('paymentUri (Solana Pay)', () => {
  it('is the address with the amount in SOL', () => {
    expect(paymentUri({ chainType: 'solana', address: solanaWallet, amount: '1.50' })).toBe(
      `solana:${solanaWallet}?amount=1.5`,
    )
    expect(paymentUri({ chainType: 'solana', address: solanaWallet })).toBe(
      `solana:${solanaWallet}`,
    )
  })

  it('adds the spl-token parameter for USDC', () => {
    const mint = USDC_SOLANA_MINT['mainnet-beta']
    expect(
      paymentUri({ chainType: 'solana', address: solanaWallet, amount: '.5', splToken: mint }),
    ).toBe(`solana:${solanaWallet}?amount=0.5&spl-token=${mint}`)
  })
})

// Spec 03 §2 "Network names: Solana, Devnet, Testnet, or the chain name".
describe('formatNetworkName', () => {
  it('labels the Solana clusters Solana, Devnet and Testnet', () => {
    expect(formatNetworkName({ chainType: 'solana', cluster: 'mainnet-beta' })).toBe('Solana')
    expect(formatNetworkName({ chainType: 'solana', cluster: 'devnet' })).toBe('Devnet')
    expect(formatNetworkName({ chainType: 'solana', cluster: 'testnet' })).toBe('Testnet')
  })

  it("uses an Ethereum-style chain's own name", () => {
    expect(formatNetworkName({ chainType: 'ethereum', chain: { name: 'Base Sepolia' } })).toBe(
      'Base Sepolia',
    )
  })
})
