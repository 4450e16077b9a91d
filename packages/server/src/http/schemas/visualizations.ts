// A visualization; its fields are shared with the shared-dashboard form.
import { str, int, timestamp, anyObject, orNull, complete } from "./basics";

export const visualizationFields = {
  type: str,
  name: str,
  description: orNull(str),
  options: anyObject,
  updated_at: timestamp,
  created_at: timestamp,
} as const;
export const visualization = complete({ id: int, ...visualizationFields }, "A visualization");
