// The two fields of every form that sets a password (account, admin's first sign-in, reset link):
// the new password with its rule, and the same typed again, with an alert while the two differ.
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { minPasswordLength } from './login-forms';

/** Whether the repeated password is typed and differs from the new one (the form's submit waits). */
export function repeatDiffers(password: string, repeated: string): boolean {
  return repeated !== '' && repeated !== password;
}

export function NewPasswordFields(props: {
  /** Prefixes the fields' ids, unique on the page: `${idPrefix}-new-password`. */
  readonly idPrefix: string;
  readonly password: string;
  readonly repeated: string;
  readonly onPasswordChange: (value: string) => void;
  readonly onRepeatedChange: (value: string) => void;
  readonly disabled: boolean;
  /** What makes a password acceptable, under the first field. */
  readonly hint: string;
  readonly mismatchText?: string;
}) {
  const { idPrefix, password, repeated, disabled } = props;
  const mismatch = repeatDiffers(password, repeated);
  return (
    <>
      <div className="space-y-2">
        <Label htmlFor={`${idPrefix}-new-password`}>New password</Label>
        <Input
          id={`${idPrefix}-new-password`}
          type="password"
          autoComplete="new-password"
          required
          minLength={minPasswordLength}
          maxLength={128}
          disabled={disabled}
          value={password}
          aria-describedby={`${idPrefix}-new-password-hint`}
          onChange={(event) => props.onPasswordChange(event.target.value)}
        />
        <p id={`${idPrefix}-new-password-hint`} className="text-xs text-muted-foreground">
          {props.hint}
        </p>
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${idPrefix}-repeat-password`}>Repeat the new password</Label>
        <Input
          id={`${idPrefix}-repeat-password`}
          type="password"
          autoComplete="new-password"
          required
          disabled={disabled}
          value={repeated}
          aria-invalid={mismatch}
          aria-describedby={mismatch ? `${idPrefix}-repeat-password-error` : undefined}
          onChange={(event) => props.onRepeatedChange(event.target.value)}
        />
        {mismatch ? (
          <p id={`${idPrefix}-repeat-password-error`} role="alert" className="text-xs text-destructive">
            {props.mismatchText ?? 'The two new passwords differ: type the same password twice.'}
          </p>
        ) : null}
      </div>
    </>
  );
}
