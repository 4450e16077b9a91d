/** TanStack Query keys of the alerts area. */
export const ALERTS_KEY = ["alerts", "list"] as const;
export const alertKey = (id: number) => ["alerts", "one", id] as const;
export const subscriptionsKey = (id: number) => ["alerts", "subscriptions", id] as const;
