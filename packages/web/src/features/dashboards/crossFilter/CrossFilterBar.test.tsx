// @vitest-environment jsdom
import type { CrossFilter } from "@sightline/core";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { Modal } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import CrossFilterBar, { crossFilterLabel } from "./CrossFilterBar";
import { stubMatchMedia } from "../../../testing/matchMedia";

beforeEach(stubMatchMedia);
afterEach(cleanup);

const filters: CrossFilter[] = [
  { column: "country", values: ["FR", "DE"], widget: 1 },
  { column: "day", type: "datetime", values: ["2024-01-05T10:30:00.000Z"], widget: 2 },
];

function renderBar(list: readonly CrossFilter[] = filters) {
  const handlers = { onRemove: vi.fn(), onClear: vi.fn(), onRemoveLast: vi.fn() };
  const view = render(<CrossFilterBar filters={list} {...handlers} />);
  return { ...handlers, view };
}

describe("CrossFilterBar", () => {
  it("shows nothing without filters", () => {
    renderBar([]);
    expect(screen.queryByTestId("cross-filters")).toBeNull();
  });

  it("shows each filter as a tag with its values, and Clear all", () => {
    const { onClear } = renderBar();
    const tags = screen.getAllByTestId("cross-filter-tag");
    expect(tags.map((t) => t.textContent)).toEqual(["country: FR, DE", "day: 2024-01-05 10:30"]);
    fireEvent.click(screen.getByText("Clear all"));
    expect(onClear).toHaveBeenCalledTimes(1);
  });

  it("removes one filter with its tag's close button", () => {
    const { onRemove } = renderBar();
    fireEvent.click(screen.getByLabelText("Remove filter day"));
    expect(onRemove).toHaveBeenCalledWith("day");
    // The tag stays until the filters change.
    expect(screen.getAllByTestId("cross-filter-tag")).toHaveLength(2);
  });

  it("Escape removes the latest filter, but not while typing or in a dialog", () => {
    const { onRemoveLast, view } = renderBar();
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onRemoveLast).toHaveBeenCalledTimes(1);

    view.rerender(
      <>
        <CrossFilterBar
          filters={filters}
          onRemove={vi.fn()}
          onClear={vi.fn()}
          onRemoveLast={onRemoveLast}
        />
        <input data-testid="field" />
        <Modal open title="Dialog">
          <button data-testid="in-dialog">x</button>
        </Modal>
      </>,
    );
    fireEvent.keyDown(screen.getByTestId("field"), { key: "Escape" });
    fireEvent.keyDown(screen.getByTestId("in-dialog"), { key: "Escape" });
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(onRemoveLast).toHaveBeenCalledTimes(1);
  });

  it("stops listening for Escape when no filter is left", () => {
    const { onRemoveLast, view } = renderBar();
    view.rerender(
      <CrossFilterBar
        filters={[]}
        onRemove={vi.fn()}
        onClear={vi.fn()}
        onRemoveLast={onRemoveLast}
      />,
    );
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onRemoveLast).not.toHaveBeenCalled();
  });
});

describe("crossFilterLabel", () => {
  it("names nulls and empty text, and shortens long selections", () => {
    expect(crossFilterLabel({ column: "c", values: [null, ""] })).toBe('c: null, ""');
    expect(crossFilterLabel({ column: "n", values: [1, 2, 3, 4, 5] })).toBe("n: 1, 2, 3 +2 more");
    expect(crossFilterLabel({ column: "ok", type: "boolean", values: [true] })).toBe("ok: true");
    expect(
      crossFilterLabel({ column: "t", type: "datetime", values: ["2024-01-05T10:30:15.000Z"] }),
    ).toBe("t: 2024-01-05 10:30:15");
  });
});
