// The dashboard's auto-refresh interval (spec 3 §5): from the address's refresh flag, clamped to
// at least 30 s and at least the smallest interval the configuration allows.
export const MIN_REFRESH_SECONDS = 30;

/** The interval in seconds, or null when the flag is absent or not a number. */
export function refreshInterval(raw: string | null, allowed: readonly number[]): number | null {
  if (raw === null || raw.trim() === "") return null;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  const smallestAllowed = Math.min(...allowed.filter((s) => s > 0), Infinity);
  const floor = Math.max(
    MIN_REFRESH_SECONDS,
    Number.isFinite(smallestAllowed) ? smallestAllowed : 0,
  );
  return Math.max(Math.round(seconds), floor);
}

/** The menu's choices: the configured intervals, those under the floor disabled. */
export function refreshChoices(
  allowed: readonly number[],
): { seconds: number; disabled: boolean }[] {
  return allowed
    .filter((s) => s > 0)
    .map((seconds) => ({ seconds, disabled: seconds < MIN_REFRESH_SECONDS }));
}
