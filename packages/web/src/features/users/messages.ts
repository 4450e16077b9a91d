import { isApiError } from "../../api/errors";

export const REQUIRED_MESSAGE = "This field is required.";
export const INVALID_EMAIL_MESSAGE = "This field must be a valid email.";
export const FAILED_SAVING = "Failed saving.";

/** Server message, else the error's own message, else 'Failed saving.' (spec 2 §8). */
export function saveErrorMessage(error: unknown): string {
  if (isApiError(error)) return error.serverMessage || FAILED_SAVING;
  if (error instanceof Error && error.message) return error.message;
  return FAILED_SAVING;
}
