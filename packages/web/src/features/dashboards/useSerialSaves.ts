// Dashboard saves one after another, each sent with the version the previous one answered. Two
// quick edits (a rename, then a tag) on a slow network were both sent with the version the page
// had loaded, and the second was refused as a conflict with the first (409).
import { useCallback, useRef } from "react";

export type VersionedSave = <T extends { version: number }>(
  send: (version: number) => Promise<T>,
) => Promise<T>;

export function useSerialSaves(version: number): VersionedSave {
  const latest = useRef(version);
  // Only forward: a render with older state must not undo a version a save already answered.
  if (version > latest.current) latest.current = version;
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  return useCallback(<T extends { version: number }>(send: (version: number) => Promise<T>) => {
    const run = queue.current.then(async () => {
      const saved = await send(latest.current);
      latest.current = Math.max(latest.current, saved.version);
      return saved;
    });
    queue.current = run.catch(() => undefined);
    return run;
  }, []);
}
