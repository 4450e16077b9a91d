// The query page's keyboard shortcuts (spec 2 §9), outside the editor: Alt+D side panel,
// Alt+F fullscreen, Alt+H version history, and in the editor's pages Ctrl/Cmd+S save, +P add
// parameter, +Shift+F format.
import { useEffect, useRef } from "react";

export type PageShortcut =
  "togglePanel" | "toggleFullscreen" | "versionHistory" | "save" | "addParameter" | "format";

export type ShortcutKey = Pick<
  KeyboardEvent,
  "key" | "code" | "altKey" | "ctrlKey" | "metaKey" | "shiftKey"
>;

/**
 * The action a key press asks for, or null. `editing`: the editor's pages (not the read-only
 * view); `canEdit`: the user may change the query. Alt+D, Alt+F and Alt+H are matched by their physical
 * key as well, since on a Mac Option changes the character.
 */
export function pageShortcut(
  e: ShortcutKey,
  { editing, canEdit }: { editing: boolean; canEdit: boolean },
): PageShortcut | null {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.toLowerCase();
  if (e.altKey && (e.code === "KeyD" || key === "d")) return "togglePanel";
  if (e.altKey && !mod && (e.code === "KeyF" || key === "f")) return "toggleFullscreen";
  if (e.altKey && !mod && (e.code === "KeyH" || key === "h")) return "versionHistory";
  if (mod && key === "s" && editing) return "save";
  if (mod && key === "p" && editing && canEdit) return "addParameter";
  if (mod && e.shiftKey && key === "f" && editing) return "format";
  return null;
}

/** Calls `run` with the shortcut of each key press the editor did not handle already. */
export function usePageShortcuts(
  state: { editing: boolean; canEdit: boolean },
  run: (shortcut: PageShortcut) => void,
): void {
  // The listener stays; it reads the latest state and handlers through this ref.
  const latest = useRef({ state, run });
  latest.current = { state, run };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // The editor handles its own shortcuts first.
      if (e.defaultPrevented) return;
      const shortcut = pageShortcut(e, latest.current.state);
      if (!shortcut) return;
      e.preventDefault();
      latest.current.run(shortcut);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
