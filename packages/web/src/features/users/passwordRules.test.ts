import { describe, expect, it } from "vitest";
import {
  PASSWORDS_DONT_MATCH,
  REQUIRED_MESSAGE,
  TOO_SHORT_MESSAGE,
  validatePasswordChange,
} from "./passwordRules";

describe("validatePasswordChange", () => {
  it("requires every field", () => {
    expect(validatePasswordChange({})).toEqual({
      old_password: REQUIRED_MESSAGE,
      password: REQUIRED_MESSAGE,
      password_repeat: REQUIRED_MESSAGE,
    });
  });

  it("needs at least 6 characters for the new password and its repeat", () => {
    expect(
      validatePasswordChange({ old_password: "x", password: "12345", password_repeat: "12345" }),
    ).toEqual({ password: TOO_SHORT_MESSAGE, password_repeat: TOO_SHORT_MESSAGE });
  });

  it("needs the repeat to match", () => {
    expect(
      validatePasswordChange({ old_password: "x", password: "123456", password_repeat: "1234567" }),
    ).toEqual({ password_repeat: PASSWORDS_DONT_MATCH });
    expect(
      validatePasswordChange({ old_password: "x", password: "123456", password_repeat: "123456" }),
    ).toEqual({});
  });
});
