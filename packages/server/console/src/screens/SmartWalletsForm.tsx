import { type FormEvent, useState } from 'react'
import { api, type Settings } from '../api.ts'
import {
  emptyChain,
  PAYMASTER_KINDS,
  type PaymasterKind,
  SMART_WALLET_TYPE_OPTIONS,
  type SmartWalletChainFields,
  type SmartWalletFields,
  smartWalletFieldsOf,
  smartWalletsPatchOf,
} from '../smart-wallets-settings.ts'
import { useLoad } from '../use-load.ts'

const PAYMASTER_LABELS: Record<PaymasterKind, string> = {
  none: 'None (users pay gas)',
  server: "The server's VerifyingPaymaster",
  erc7677: 'ERC-7677 service',
}

/** Smart wallets (docs/smart-wallets.md): type, chains, sponsorship; Save sends `smart_wallets` when it changed. */
export function SmartWalletsForm(props: {
  appId: string
  settings: Settings
  save: (patch: Settings) => Promise<void>
}) {
  const [fields, setFields] = useState<SmartWalletFields>(() => smartWalletFieldsOf(props.settings))
  const [error, setError] = useState<string>()
  const set = <K extends keyof SmartWalletFields>(key: K, value: SmartWalletFields[K]) =>
    setFields((f) => ({ ...f, [key]: value }))
  const setChain = (index: number, change: Partial<SmartWalletChainFields>) =>
    setFields((f) => ({
      ...f,
      chains: f.chains.map((chain, i) => (i === index ? { ...chain, ...change } : chain)),
    }))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setError(undefined)
    let patch: Settings
    try {
      patch = smartWalletsPatchOf(fields, props.settings)
    } catch (e) {
      setError((e as Error).message)
      return
    }
    props.save(patch).catch((e: Error) => setError(e.message))
  }
  const text = (key: 'maxOperations' | 'maxGasCost', label: string, placeholder: string) => (
    <label>
      {label}
      <input
        value={fields[key]}
        placeholder={placeholder}
        inputMode="numeric"
        onChange={(e) => set(key, e.target.value)}
      />
    </label>
  )
  return (
    <form className="card" onSubmit={submit} aria-label="Smart wallets">
      <h2>Smart wallets</h2>
      <label className="check">
        <input
          type="checkbox"
          checked={fields.enabled}
          onChange={(e) => set('enabled', e.target.checked)}
        />
        Smart wallets on (on the chains below)
      </label>
      <fieldset>
        <legend>Account type</legend>
        {SMART_WALLET_TYPE_OPTIONS.map(({ type, summary }) => (
          <label key={type} className="check">
            <input
              type="radio"
              name="smart-wallet-type"
              value={type}
              checked={fields.type === type}
              onChange={() => set('type', type)}
            />
            <span>
              <code>{type}</code> — {summary}
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Chains</legend>
        {fields.chains.length === 0 && <p className="muted">No chains yet.</p>}
        {fields.chains.length > 0 && (
          <table aria-label="Smart-wallet chains">
            <thead>
              <tr>
                <th>Chain id</th>
                <th>Bundler URL</th>
                <th>Paymaster</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {fields.chains.map((chain, index) => (
                <ChainRow
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own until saved; removing re-keys the rest, which only resets focus
                  key={index}
                  chain={chain}
                  number={index + 1}
                  change={(change) => setChain(index, change)}
                  remove={() =>
                    set(
                      'chains',
                      fields.chains.filter((_, i) => i !== index),
                    )
                  }
                />
              ))}
            </tbody>
          </table>
        )}
        <button type="button" onClick={() => set('chains', [...fields.chains, emptyChain()])}>
          Add chain
        </button>
      </fieldset>
      <fieldset>
        <legend>Sponsorship policy (the server's paymaster)</legend>
        <label>
          Contracts sponsored calls may target, one a line (empty: any)
          <textarea
            rows={3}
            spellCheck={false}
            value={fields.contracts}
            placeholder="0x…"
            onChange={(e) => set('contracts', e.target.value)}
          />
        </label>
        {text('maxOperations', 'Operations per user per day (empty: no limit)', '20')}
        {text(
          'maxGasCost',
          'Gas cost per user per day, in wei (empty: no limit)',
          '10000000000000000',
        )}
      </fieldset>
      <PaymasterSigner appId={props.appId} />
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button type="submit">Save smart wallets</button>
    </form>
  )
}

/** One chain: its id, bundler, and who sponsors gas there. */
function ChainRow(props: {
  chain: SmartWalletChainFields
  number: number
  change: (change: Partial<SmartWalletChainFields>) => void
  remove: () => void
}) {
  const { chain, number, change } = props
  return (
    <tr>
      <td>
        <input
          aria-label={`Chain ${number} id`}
          value={chain.chainId}
          placeholder="8453"
          inputMode="numeric"
          onChange={(e) => change({ chainId: e.target.value })}
        />
      </td>
      <td>
        <input
          aria-label={`Chain ${number} bundler URL`}
          value={chain.bundlerUrl}
          placeholder="https://…"
          onChange={(e) => change({ bundlerUrl: e.target.value })}
        />
      </td>
      <td>
        <select
          aria-label={`Chain ${number} paymaster`}
          value={chain.paymaster}
          onChange={(e) => change({ paymaster: e.target.value as PaymasterKind })}
        >
          {PAYMASTER_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {PAYMASTER_LABELS[kind]}
            </option>
          ))}
        </select>
        {chain.paymaster === 'server' && (
          <input
            aria-label={`Chain ${number} VerifyingPaymaster address`}
            value={chain.paymasterAddress}
            placeholder="0x…"
            onChange={(e) => change({ paymasterAddress: e.target.value })}
          />
        )}
        {chain.paymaster === 'erc7677' && (
          <>
            <input
              aria-label={`Chain ${number} paymaster URL`}
              value={chain.paymasterUrl}
              placeholder="https://…"
              onChange={(e) => change({ paymasterUrl: e.target.value })}
            />
            <textarea
              aria-label={`Chain ${number} paymaster context (JSON, optional)`}
              rows={2}
              spellCheck={false}
              value={chain.paymasterContext}
              placeholder='{"sponsorshipPolicyId": "sp_…"}'
              onChange={(e) => change({ paymasterContext: e.target.value })}
            />
          </>
        )}
      </td>
      <td>
        <button type="button" className="link" onClick={props.remove}>
          Remove chain {number}
        </button>
      </td>
    </tr>
  )
}

/** The app's paymaster signer: its address, or a button that creates it (the key stays on the server). */
function PaymasterSigner(props: { appId: string }) {
  const { appId } = props
  const signer = useLoad(() => api.paymasterSigner(appId), `signer:${appId}`)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const create = () => {
    setError(undefined)
    setBusy(true)
    api
      .createPaymasterSigner(appId)
      .then(signer.reload, (e: Error) => setError(e.message))
      .finally(() => setBusy(false))
  }
  const address = signer.data?.address
  return (
    <fieldset>
      <legend>Paymaster signer</legend>
      {signer.error && <p className="error">{signer.error.message}</p>}
      {address && (
        <p>
          Address: <code>{address}</code>
          <br />
          <span className="muted">
            Deploy VerifyingPaymaster with it as verifyingSigner, fund its deposit, then choose
            &quot;The server&apos;s VerifyingPaymaster&quot; on a chain.
          </span>
        </p>
      )}
      {signer.data && !address && (
        <>
          <p className="muted">
            None yet. The key is made and sealed on the server; only its address is shown.
          </p>
          <button type="button" disabled={busy} onClick={create}>
            Create paymaster signer
          </button>
        </>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </fieldset>
  )
}
