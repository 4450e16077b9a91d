// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { pageShortcut, usePageShortcuts, type ShortcutKey } from "./usePageShortcuts";

const press = (init: Partial<ShortcutKey>): ShortcutKey => ({
  key: "",
  code: "",
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  ...init,
});
const editor = { editing: true, canEdit: true };
const view = { editing: false, canEdit: true };

describe("pageShortcut", () => {
  it("toggles the panel and fullscreen on Alt+D and Alt+F everywhere, by key or physical key", () => {
    expect(pageShortcut(press({ altKey: true, key: "d" }), view)).toBe("togglePanel");
    // Option+D on a Mac types "∂": the physical key counts.
    expect(pageShortcut(press({ altKey: true, key: "∂", code: "KeyD" }), view)).toBe("togglePanel");
    expect(pageShortcut(press({ altKey: true, key: "F" }), view)).toBe("toggleFullscreen");
    expect(pageShortcut(press({ altKey: true, key: "ƒ", code: "KeyF" }), editor)).toBe(
      "toggleFullscreen",
    );
  });

  it("opens the version history on Alt+H in the view and the editor, by key or physical key", () => {
    expect(pageShortcut(press({ altKey: true, key: "h" }), view)).toBe("versionHistory");
    expect(pageShortcut(press({ altKey: true, key: "˙", code: "KeyH" }), editor)).toBe(
      "versionHistory",
    );
    expect(pageShortcut(press({ ctrlKey: true, altKey: true, key: "h" }), editor)).toBeNull();
    expect(pageShortcut(press({ key: "h" }), editor)).toBeNull();
  });

  it("saves, adds a parameter and formats only in the editor's pages", () => {
    expect(pageShortcut(press({ ctrlKey: true, key: "s" }), editor)).toBe("save");
    expect(pageShortcut(press({ metaKey: true, key: "S" }), editor)).toBe("save");
    expect(pageShortcut(press({ ctrlKey: true, key: "p" }), editor)).toBe("addParameter");
    expect(pageShortcut(press({ ctrlKey: true, shiftKey: true, key: "F" }), editor)).toBe("format");
    expect(pageShortcut(press({ ctrlKey: true, key: "s" }), view)).toBeNull();
    expect(pageShortcut(press({ ctrlKey: true, key: "p" }), view)).toBeNull();
    expect(pageShortcut(press({ ctrlKey: true, shiftKey: true, key: "f" }), view)).toBeNull();
  });

  it("offers Add Parameter only to those who may edit the query", () => {
    const readOnly = { editing: true, canEdit: false };
    expect(pageShortcut(press({ ctrlKey: true, key: "p" }), readOnly)).toBeNull();
    expect(pageShortcut(press({ ctrlKey: true, key: "s" }), readOnly)).toBe("save");
  });

  it("leaves other keys alone", () => {
    expect(pageShortcut(press({ key: "s" }), editor)).toBeNull();
    expect(pageShortcut(press({ ctrlKey: true, key: "f" }), editor)).toBeNull();
    expect(pageShortcut(press({ altKey: true, ctrlKey: true, key: "f" }), editor)).toBeNull();
  });
});

describe("usePageShortcuts", () => {
  const keydown = (init: KeyboardEventInit) => {
    const event = new KeyboardEvent("keydown", { cancelable: true, ...init });
    act(() => void window.dispatchEvent(event));
    return event;
  };

  it("runs the latest handler and keeps the browser's own action from happening", () => {
    const first = vi.fn();
    const second = vi.fn();
    const { rerender, unmount } = renderHook(({ run }) => usePageShortcuts(editor, run), {
      initialProps: { run: first },
    });
    rerender({ run: second });
    const event = keydown({ key: "s", ctrlKey: true });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith("save");
    expect(event.defaultPrevented).toBe(true);
    unmount();
    keydown({ key: "s", ctrlKey: true });
    expect(second).toHaveBeenCalledTimes(1);
  });

  it("ignores keys the editor handled already and keys that are no shortcut", () => {
    const run = vi.fn();
    renderHook(() => usePageShortcuts(editor, run));
    const handled = new KeyboardEvent("keydown", { key: "s", ctrlKey: true, cancelable: true });
    handled.preventDefault();
    act(() => void window.dispatchEvent(handled));
    const plain = keydown({ key: "a" });
    expect(run).not.toHaveBeenCalled();
    expect(plain.defaultPrevented).toBe(false);
  });
});
