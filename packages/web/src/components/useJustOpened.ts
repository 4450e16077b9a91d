import { useEffect, useState } from "react";

/**
 * True for a moment after `open` turns true. A dialog opened by a double click would otherwise
 * take the second click on its mask as "click outside" and close at once; while this is true the
 * dialog keeps its mask from closing it.
 */
export function useJustOpened(open: boolean, ms = 600): boolean {
  const [justOpened, setJustOpened] = useState(false);
  useEffect(() => {
    if (!open) return;
    setJustOpened(true);
    const timer = setTimeout(() => setJustOpened(false), ms);
    return () => clearTimeout(timer);
  }, [open, ms]);
  return open && justOpened;
}
