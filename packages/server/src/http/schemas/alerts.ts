// Alerts, their subscriptions, and the destinations they notify.
import { str, int, bool, timestamp, anyObject, orNull, object, complete } from "./basics";
import { query } from "./queries";
import { maskedOptions, configurationSchema } from "./typedObjects";
import { user } from "./users";

const destinationFields = { id: int, name: str, type: str, icon: str } as const;
export const destination = complete(destinationFields, "A destination");
export const destinationFull = complete(
  {
    ...destinationFields,
    options: maskedOptions,
    last_failure: orNull({ ...str, description: "Why the last delivery failed" }),
    last_failure_at: orNull(timestamp),
  },
  "A destination with its options",
);
export const destinationType = object(
  {
    name: str,
    type: str,
    icon: str,
    configuration_schema: configurationSchema,
    deprecated: { ...bool, description: "Present (true) on deprecated types" },
  },
  ["name", "type", "icon", "configuration_schema"],
  "A destination type",
);

/** A subscription's destination: when its last delivery failed, and why (owner and admins). */
const subscribedDestination = object(
  {
    ...destinationFields,
    last_failure_at: orNull(timestamp),
    last_failure: orNull({ ...str, description: "Why (the alert's owner and admins only)" }),
  },
  ["id", "name", "type", "icon", "last_failure_at"],
);

const alertFields = {
  id: int,
  name: str,
  options: {
    ...anyObject,
    description: "column, op, value, selector, muted, custom_subject, custom_body",
  },
  state: { type: "string", enum: ["unknown", "ok", "triggered"] },
  last_triggered_at: orNull(timestamp),
  updated_at: timestamp,
  created_at: timestamp,
  rearm: orNull(int),
} as const;
export const alert = complete({ ...alertFields, query, user: orNull(user) }, "An alert");
export const alertSubscription = object(
  {
    id: int,
    user: orNull(user),
    alert_id: int,
    destination: {
      ...subscribedDestination,
      description: "Absent for an e-mail to the subscriber",
    },
  },
  ["id", "user", "alert_id"],
  "An alert subscription",
);
