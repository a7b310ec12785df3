import { LatchkeyError, ProviderRpcError } from '@latchkey/core'
import {
  MODAL_OPEN_DELAY_MS,
  MODAL_RESET_DELAY_MS,
  SUCCESS_CLOSE_DELAY_MS,
} from '@latchkey/protocol/constants'
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ETH_ADDRESS, renderWithWallets } from '../test/wallet.tsx'
import { useSignMessage } from './useSignMessage.ts'
import { useSignSolanaMessage } from './useSignSolanaMessage.ts'
import { type TypedData, useSignTypedData } from './useSignTypedData.ts'

// The modal's lazy chunk, loaded once: opening the dialog then waits on nothing but promises.
beforeAll(() => import('../modal/chunk.ts'))
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

/** Under fake timers: lets pending promises settle and React commit, then `ms` pass. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

type Hooks = {
  signMessage: ReturnType<typeof useSignMessage>['signMessage']
  signTypedData: ReturnType<typeof useSignTypedData>['signTypedData']
  signSolanaMessage: ReturnType<typeof useSignSolanaMessage>['signMessage']
}

function Probe({ hooks }: { hooks: Hooks }) {
  hooks.signMessage = useSignMessage().signMessage
  hooks.signTypedData = useSignTypedData().signTypedData
  hooks.signSolanaMessage = useSignSolanaMessage().signMessage
  return null
}

/** Renders the three hooks and hands them out. */
function setup(options: Parameters<typeof renderWithWallets>[1] = {}) {
  const hooks = {} as Hooks
  return { hooks, ...renderWithWallets(<Probe hooks={hooks} />, options) }
}

/** Settles a promise into a value to assert on, without an unhandled rejection. */
const outcome = <T,>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )

const MAIL: TypedData = {
  domain: { name: 'Ether Mail', version: '1', chainId: 1 },
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
}

describe('useSignMessage', () => {
  it('opens the Sign message screen; Sign and continue signs (personal_sign of the UTF-8 hex), shows Success, closes 1.4 s later and resolves', async () => {
    vi.useFakeTimers()
    const { hooks, rpc } = setup()
    const result = outcome(hooks.signMessage({ message: '0xhi' }))
    await elapse(MODAL_OPEN_DELAY_MS)
    const dialog = screen.getByRole('dialog')
    expect(dialog.getAttribute('aria-labelledby')).toBe(
      screen.getByRole('heading', { name: 'Sign message' }).id,
    )
    expect(screen.getByTestId('lk-sign-details').textContent).toBe('0xhi')
    fireEvent.click(screen.getByRole('button', { name: 'Sign and continue' }))
    await elapse()
    screen.getByRole('button', { name: 'Success' })
    // '0xhi' is text, not hex: its UTF-8 bytes are what gets signed.
    expect(rpc).toHaveBeenCalledWith(
      expect.objectContaining({
        chain_type: 'ethereum',
        request: { method: 'personal_sign', params: ['0x30786869', ETH_ADDRESS] },
      }),
    )
    let settled = false
    void result.then(() => (settled = true))
    await elapse(SUCCESS_CLOSE_DELAY_MS - 1)
    expect(settled).toBe(false)
    await elapse(1)
    expect(settled).toBe(true)
    expect(await result).toEqual({ value: { signature: '0xsignature' } })
    // The closed dialog keeps its last screen for 500 ms, then unmounts.
    await elapse(MODAL_RESET_DELAY_MS - 1)
    expect(screen.queryByRole('dialog')).not.toBeNull()
    await elapse(1)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it.each([
    ['the close button', () => fireEvent.click(screen.getByRole('button', { name: 'Close' }))],
    ['Escape', () => fireEvent.keyDown(document, { key: 'Escape' })],
    ['Not now', () => fireEvent.click(screen.getByRole('button', { name: 'Not now' }))],
  ])('rejects with ProviderRpcError 4001 when closed with %s before signing', async (_, close) => {
    const { hooks, rpc } = setup()
    const result = outcome(
      hooks.signMessage({ message: 'hello' }, { uiOptions: { isCancellable: true } }),
    )
    await screen.findByRole('heading', { name: 'Sign message' })
    close()
    const { error } = (await result) as { error: ProviderRpcError }
    expect(error).toBeInstanceOf(ProviderRpcError)
    expect(error.code).toBe(4001)
    expect(error.message).toBe('The user rejected the request.')
    expect(rpc).not.toHaveBeenCalled()
  })

  it('resolves, not rejects, when the user closes the Success screen before it closes itself', async () => {
    const { hooks } = setup()
    const result = outcome(hooks.signMessage({ message: 'hello' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Sign and continue' }))
    await screen.findByRole('button', { name: 'Success' })
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(await result).toEqual({ value: { signature: '0xsignature' } })
  })

  it("rejects an empty message at once with 'Message must be a non-empty string', opening nothing", async () => {
    const { hooks, instance } = setup()
    const { error } = (await outcome(hooks.signMessage({ message: '' }))) as {
      error: LatchkeyError
    }
    expect(error).toBeInstanceOf(LatchkeyError)
    expect(error.code).toBe('EMPTY_MESSAGE')
    expect(error.message).toBe('Message must be a non-empty string')
    expect(instance.getUiState().requested).toBe(false)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('rejects without a screen when there is no embedded wallet, no such address, or no user', async () => {
    const noWallet = setup({ chains: ['solana'] })
    const { error } = (await outcome(noWallet.hooks.signMessage({ message: 'hi' }))) as {
      error: LatchkeyError
    }
    expect(error.code).toBe('WALLET_NOT_FOUND')
    expect(error.message).toBe('No embedded ethereum wallet found; create one first')
    cleanup()

    const other = setup()
    const wrong = (await outcome(
      other.hooks.signMessage({ message: 'hi' }, { address: `0x${'2'.repeat(40)}` }),
    )) as { error: LatchkeyError }
    expect(wrong.error.code).toBe('WALLET_NOT_FOUND')
    cleanup()

    const loggedOut = setup({ authenticated: false })
    const anonymous = (await outcome(loggedOut.hooks.signMessage({ message: 'hi' }))) as {
      error: LatchkeyError
    }
    expect(anonymous.error.code).toBe('NOT_AUTHENTICATED')
    expect(loggedOut.instance.getUiState().requested).toBe(false)
  })

  it('signs without the screen when uiOptions.showWalletUIs is false', async () => {
    const { hooks, instance } = setup()
    expect(
      await hooks.signMessage(
        { message: 'hi' },
        {
          address: ETH_ADDRESS.toUpperCase().replace('0X', '0x'),
          uiOptions: { showWalletUIs: false },
        },
      ),
    ).toEqual({ signature: '0xsignature' })
    expect(instance.getUiState().requested).toBe(false)
  })

  it('a second request supersedes an open one, which is rejected as 4001', async () => {
    const { hooks } = setup()
    const first = outcome(hooks.signMessage({ message: 'first' }))
    await screen.findByText('first')
    const second = outcome(hooks.signMessage({ message: 'second' }))
    expect(((await first) as { error: ProviderRpcError }).error.code).toBe(4001)
    await screen.findByText('second')
    fireEvent.click(screen.getByRole('button', { name: 'Sign and continue' }))
    await screen.findByRole('button', { name: 'Success' })
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(await second).toEqual({ value: { signature: '0xsignature' } })
  })
})

describe('useSignTypedData', () => {
  it("shows the primaryType and message, and signs eth_signTypedData_v4 with the typed data's JSON", async () => {
    const { hooks, rpc } = setup()
    const result = outcome(hooks.signTypedData(MAIL, { uiOptions: { title: 'Sign your mail' } }))
    await screen.findByRole('heading', { name: 'Sign your mail' })
    const details = screen.getByTestId('lk-sign-details')
    expect(details.querySelector('.lk-details-label')?.textContent).toBe('Mail')
    expect(details.textContent).toContain('Hello, Bob!')
    fireEvent.click(screen.getByRole('button', { name: 'Sign and continue' }))
    await screen.findByRole('button', { name: 'Success' })
    const request = rpc.mock.calls[0]?.[0].request as { method: string; params: [string, string] }
    expect(request.method).toBe('eth_signTypedData_v4')
    expect(request.params[0]).toBe(ETH_ADDRESS)
    expect(JSON.parse(request.params[1])).toEqual(MAIL)
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(await result).toEqual({ value: { signature: '0xsignature' } })
  })
})

describe('useSignSolanaMessage', () => {
  it('shows the message text and resolves with the 64-byte signature', async () => {
    const signature = new Uint8Array(64).fill(7)
    const { hooks, rpc } = setup({
      rpc: () => ({ result: btoa(String.fromCharCode(...signature)).replace(/=+$/, '') }),
    })
    const result = outcome(hooks.signSolanaMessage({ message: new TextEncoder().encode('gm') }))
    await screen.findByText('gm')
    fireEvent.click(screen.getByRole('button', { name: 'Sign and continue' }))
    await screen.findByRole('button', { name: 'Success' })
    expect(rpc.mock.calls[0]?.[0].chain_type).toBe('solana')
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(await result).toEqual({ value: { signature } })
  })

  it('rejects an empty message at once', async () => {
    const { hooks, instance } = setup()
    const { error } = (await outcome(hooks.signSolanaMessage({ message: new Uint8Array() }))) as {
      error: LatchkeyError
    }
    expect(error.code).toBe('EMPTY_MESSAGE')
    expect(instance.getUiState().requested).toBe(false)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })
})
