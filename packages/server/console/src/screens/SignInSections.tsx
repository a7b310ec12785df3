import type { SignInFields } from '../sign-in-settings.ts'

// The custom-JWT, cross-app and Telegram parts of the "Sign-in providers"
// form (SignInSettingsForm.tsx): fields only; the form maps and saves them.

/** What a section changes: one field at a time. */
export type SetField = <K extends keyof SignInFields>(key: K, value: SignInFields[K]) => void

interface SectionProps {
  fields: SignInFields
  set: SetField
}

type TextKey =
  | 'jwksUrl'
  | 'issuer'
  | 'audience'
  | 'subjectClaim'
  | 'crossAppUrl'
  | 'telegramBotId'
  | 'telegramBotName'
type CheckKey = 'crossAppEnabled' | 'crossAppReadOnly' | 'telegramLink' | 'telegramSeamless'

function Text(props: SectionProps & { name: TextKey; label: string; placeholder?: string }) {
  const { fields, set, name } = props
  return (
    <label>
      {props.label}
      <input
        value={fields[name]}
        placeholder={props.placeholder}
        spellCheck={false}
        onChange={(e) => set(name, e.target.value)}
      />
    </label>
  )
}

function Check(props: SectionProps & { name: CheckKey; label: string }) {
  const { fields, set, name } = props
  return (
    <label className="check">
      <input type="checkbox" checked={fields[name]} onChange={(e) => set(name, e.target.checked)} />
      {props.label}
    </label>
  )
}

/** `custom_auth` (docs/login-custom-jwt.md): where the keys are and what the tokens must say. */
export function CustomJwtFields(props: SectionProps) {
  const { fields, set } = props
  return (
    <fieldset>
      <legend>Custom JWT (your own auth)</legend>
      <p className="muted">
        On when an issuer and audience are set; empty every field to turn it off.
      </p>
      <div>
        <label className="check">
          <input
            type="radio"
            name="custom-jwt-key"
            checked={fields.customKey === 'jwks'}
            onChange={() => set('customKey', 'jwks')}
          />
          JWKS URL
        </label>
        <label className="check">
          <input
            type="radio"
            name="custom-jwt-key"
            checked={fields.customKey === 'pem'}
            onChange={() => set('customKey', 'pem')}
          />
          PEM public key
        </label>
      </div>
      {fields.customKey === 'jwks' ? (
        <Text
          {...props}
          name="jwksUrl"
          label="JWKS URL (https)"
          placeholder="https://auth.example.com/.well-known/jwks.json"
        />
      ) : (
        <label>
          PEM public key
          <textarea
            rows={4}
            spellCheck={false}
            value={fields.publicKeyPem}
            placeholder="-----BEGIN PUBLIC KEY-----"
            onChange={(e) => set('publicKeyPem', e.target.value)}
          />
        </label>
      )}
      <Text
        {...props}
        name="issuer"
        label="Issuer (the tokens' iss)"
        placeholder="https://auth.example.com"
      />
      <Text {...props} name="audience" label="Audience (the tokens' aud)" placeholder="latchkey" />
      <Text
        {...props}
        name="subjectClaim"
        label="Claim naming the user (empty: sub)"
        placeholder="sub"
      />
    </fieldset>
  )
}

/** `cross_app` (docs/cross-app.md): this app as a provider; a requester needs no setting. */
export function CrossAppFields(props: SectionProps & { appId: string }) {
  const { fields, set } = props
  return (
    <fieldset>
      <legend>Cross-app</legend>
      <Check
        {...props}
        name="crossAppEnabled"
        label="Other apps on this server may log in with this app's accounts"
      />
      <Check
        {...props}
        name="crossAppReadOnly"
        label="Read only: they may not ask this app's wallets to sign"
      />
      <Text
        {...props}
        name="crossAppUrl"
        label="Page that hosts the consent and signing screens (one of this app's origins)"
        placeholder="https://wallet.example.com/cross-app"
      />
      <label>
        Requester app ids allowed, one a line (empty: every app on this server)
        <textarea
          rows={2}
          spellCheck={false}
          value={fields.crossAppRequesters}
          onChange={(e) => set('crossAppRequesters', e.target.value)}
        />
      </label>
      <p className="muted">
        As a requester this app needs no setting: list <code>latchkey:PROVIDER_APP_ID</code> in its
        client&apos;s loginMethods, and have the provider app allow <code>{props.appId}</code>.
      </p>
    </fieldset>
  )
}

/** `telegram_auth_config` and the bot's credentials (docs/login-telegram.md). */
export function TelegramFields(props: SectionProps & { tokenSet: boolean }) {
  const { fields, set } = props
  return (
    <fieldset>
      <legend>Telegram</legend>
      <Text {...props} name="telegramBotName" label="Bot username" placeholder="example_bot" />
      <label>
        Bot token (from BotFather)
        <input
          type="password"
          autoComplete="new-password"
          value={fields.telegramBotToken}
          placeholder={props.tokenSet ? 'Set (empty: keep it)' : 'Not set'}
          onChange={(e) => set('telegramBotToken', e.target.value)}
        />
      </label>
      <Text
        {...props}
        name="telegramBotId"
        label="Bot id (empty: the digits before the token's colon)"
        placeholder="123456"
      />
      <Check {...props} name="telegramLink" label="Users may link Telegram to their account" />
      <Check {...props} name="telegramSeamless" label="Log in at once inside a Telegram Mini App" />
    </fieldset>
  )
}
