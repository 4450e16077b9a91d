// The Change Password dialog's rules (spec 2 §5).
import { REQUIRED_MESSAGE } from "./messages";

export { REQUIRED_MESSAGE };
export const PASSWORD_MIN_LENGTH = 6;
export const TOO_SHORT_MESSAGE = "This field is too short.";
export const PASSWORDS_DONT_MATCH = "Passwords don't match";

export interface PasswordChange {
  old_password: string;
  password: string;
  password_repeat: string;
}

export type PasswordErrors = Partial<Record<keyof PasswordChange, string>>;

/** Every field required; new and repeat at least 6 characters; repeat equal to new. */
export function validatePasswordChange(values: Partial<PasswordChange>): PasswordErrors {
  const errors: PasswordErrors = {};
  if (!values.old_password) errors.old_password = REQUIRED_MESSAGE;
  for (const key of ["password", "password_repeat"] as const) {
    const value = values[key] ?? "";
    if (!value) errors[key] = REQUIRED_MESSAGE;
    else if (value.length < PASSWORD_MIN_LENGTH) errors[key] = TOO_SHORT_MESSAGE;
  }
  if (!errors.password_repeat && values.password !== values.password_repeat) {
    errors.password_repeat = PASSWORDS_DONT_MATCH;
  }
  return errors;
}
