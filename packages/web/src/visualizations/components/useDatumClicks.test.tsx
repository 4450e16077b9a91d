// @vitest-environment jsdom
// Clicks on values as the host's actions (issue 25): a double click is one click, one action runs
// at once, several are offered in a menu at the click.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stubLayout } from "../../testing/layout";
import type { DatumAction, DatumClick } from "../types";
import { clickHint, useDatumClicks } from "./useDatumClicks";

beforeEach(stubLayout);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const italy: DatumClick = { column: "country", value: "Italy", additive: false };

/** A visualization of one value: a click on it reports Italy, as a renderer would. */
function Harness({ actions }: { actions: DatumAction[] }) {
  const { wrapperProps, onDatumClick, menu } = useDatumClicks(actions);
  return (
    <div {...wrapperProps}>
      <button type="button" onClick={() => onDatumClick?.(italy)}>
        Italy
      </button>
      {menu}
    </div>
  );
}

function action(key: string, hint: string) {
  const run = vi.fn<(click: DatumClick) => void>();
  return { key, label: () => `${key} it`, hint, run } satisfies DatumAction;
}

/** A double click as the browser sends it: two clicks (the second counting 2), then dblclick. */
async function doubleClick(target: Element) {
  fireEvent.mouseDown(target, { detail: 1 });
  fireEvent.click(target, { detail: 1 });
  fireEvent.mouseDown(target, { detail: 2 });
  fireEvent.click(target, { detail: 2 });
  fireEvent.doubleClick(target, { detail: 2 });
  // The click under way is forgotten once its dispatch is over.
  await act(() => new Promise((resolve) => setTimeout(resolve, 5)));
}

describe("useDatumClicks", () => {
  it("runs a single action once for a double click", async () => {
    const filter = action("filter", "filter the dashboard");
    render(<Harness actions={[filter]} />);
    await doubleClick(screen.getByRole("button", { name: "Italy" }));
    expect(filter.run).toHaveBeenCalledTimes(1);
    expect(filter.run).toHaveBeenCalledWith(italy);
    // A later click is a click again.
    fireEvent.click(screen.getByRole("button", { name: "Italy" }), { detail: 1 });
    expect(filter.run).toHaveBeenCalledTimes(2);
  });

  it("offers several actions in a menu that a double click opens once and keeps open", async () => {
    const open = action("open", "open Country detail");
    const filter = action("filter", "filter the dashboard");
    render(<Harness actions={[open, filter]} />);
    await doubleClick(screen.getByRole("button", { name: "Italy" }));
    const items = await screen.findAllByRole("menuitem");
    expect(items.map((i) => i.textContent)).toEqual(["open it", "filter it"]);
    fireEvent.click(screen.getByRole("menuitem", { name: "filter it" }), { detail: 1 });
    expect(filter.run).toHaveBeenCalledWith(italy);
    expect(open.run).not.toHaveBeenCalled();
  });

  it("closes the menu on Escape or a press elsewhere, doing nothing", async () => {
    const open = action("open", "open Country detail");
    const filter = action("filter", "filter the dashboard");
    render(<Harness actions={[open, filter]} />);
    fireEvent.click(screen.getByRole("button", { name: "Italy" }), { detail: 1 });
    await screen.findAllByRole("menuitem");
    fireEvent.keyDown(document.body, { key: "Escape" });
    await vi.waitFor(() => expect(screen.queryAllByRole("menuitem")).toHaveLength(0));
    fireEvent.click(screen.getByRole("button", { name: "Italy" }), { detail: 1 });
    await screen.findAllByRole("menuitem");
    fireEvent.mouseDown(document.body, { detail: 1 });
    await vi.waitFor(() => expect(screen.queryAllByRole("menuitem")).toHaveLength(0));
    expect(open.run).not.toHaveBeenCalled();
    expect(filter.run).not.toHaveBeenCalled();
  });

  it("says what a click does", () => {
    expect(clickHint([action("open", "open Country detail")])).toBe("Click to open Country detail");
    expect(
      clickHint([action("open", "open Country detail"), action("f", "filter the dashboard")]),
    ).toBe("Click to open Country detail or filter the dashboard");
    expect(clickHint([action("click", "")])).toBeUndefined();
    expect(clickHint(undefined)).toBeUndefined();
  });
});
