/** TanStack Query keys of the destinations area. */
export const DESTINATIONS_KEY = ["destinations", "list"] as const;
export const DESTINATION_TYPES_KEY = ["destinations", "types"] as const;
export const destinationKey = (id: number) => ["destinations", "one", id] as const;
