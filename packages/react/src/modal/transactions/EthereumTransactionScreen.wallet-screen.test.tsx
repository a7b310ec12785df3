import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LatchkeyInstance } from '../../store.ts'
import { WalletScreen } from '../WalletScreen.tsx'
import { ethereumRequest, HASH } from './fixtures.test-helper.ts'

afterEach(cleanup)

describe("WalletScreen: 'ethereum-transaction'", () => {
  it('loads the confirm screen and completes the request with the steps’ results', async () => {
    const instance = {
      completeWalletScreen: vi.fn(),
      setWalletScreenExit: vi.fn(),
    } as unknown as LatchkeyInstance
    const onClose = vi.fn()
    const request = ethereumRequest({ submit: async () => ({ hash: HASH }) })
    render(<WalletScreen instance={instance} request={request} onClose={onClose} />)
    const approve = (await screen.findByRole('button', { name: 'Approve' })) as HTMLButtonElement
    await waitFor(() => expect(approve.disabled).toBe(false))
    fireEvent.click(approve)
    fireEvent.click(await screen.findByRole('button', { name: 'All Done' }))
    expect(instance.completeWalletScreen).toHaveBeenCalledWith(request, [{ hash: HASH }])
    expect(onClose).toHaveBeenCalledOnce()
  })
})
