// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { EditorView } from "@codemirror/view";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createRef } from "react";
import { CHANGE_DEBOUNCE_MS, QueryEditor, type QueryEditorHandle } from "./QueryEditor";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function mount(value = "") {
  const onChange = vi.fn();
  const onRun = vi.fn();
  const onSave = vi.fn();
  const props = { schema: [], snippets: [], liveAutocomplete: false, syntax: "sql" };
  const result = render(
    <QueryEditor value={value} onChange={onChange} onRun={onRun} onSave={onSave} {...props} />,
  );
  const dom = screen.getByTestId("query-editor").querySelector(".cm-editor") as HTMLElement;
  const view = EditorView.findFromDOM(dom)!;
  const type = (text: string) =>
    act(() => {
      view.dispatch({ changes: { from: view.state.doc.length, insert: text } });
    });
  const rerender = (next: string) =>
    result.rerender(
      <QueryEditor value={next} onChange={onChange} onRun={onRun} onSave={onSave} {...props} />,
    );
  return { view, type, onChange, onRun, onSave, rerender };
}

describe("query editor text changes", () => {
  it("reach the page once, 100 ms after typing stops", () => {
    const { type, onChange } = mount();
    type("sel");
    act(() => vi.advanceTimersByTime(CHANGE_DEBOUNCE_MS - 1));
    type("ect 1");
    act(() => vi.advanceTimersByTime(CHANGE_DEBOUNCE_MS - 1));
    expect(onChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onChange.mock.calls).toEqual([["select 1"]]);
    expect(CHANGE_DEBOUNCE_MS).toBe(100);
  });

  it("are sent at once before running or saving by shortcut", () => {
    const { view, type, onChange, onRun, onSave } = mount();
    type("select 2");
    const key = (init: KeyboardEventInit) =>
      act(() => void view.contentDOM.dispatchEvent(new KeyboardEvent("keydown", init)));
    key({ key: "Enter", ctrlKey: true, bubbles: true, cancelable: true });
    expect(onChange.mock.calls).toEqual([["select 2"]]);
    expect(onChange.mock.invocationCallOrder[0]).toBeLessThan(onRun.mock.invocationCallOrder[0]);
    type(" as n");
    key({ key: "s", ctrlKey: true, bubbles: true, cancelable: true });
    expect(onChange.mock.calls.at(-1)).toEqual(["select 2 as n"]);
    expect(onSave).toHaveBeenCalledTimes(1);
  });

  it("are sent when the editor loses focus", () => {
    const { view, type, onChange } = mount();
    type("select 3");
    act(() => void view.contentDOM.dispatchEvent(new FocusEvent("blur")));
    expect(onChange.mock.calls).toEqual([["select 3"]]);
  });

  it("keep newer typing when the page echoes the text sent earlier", () => {
    const { view, type, rerender } = mount();
    type("select");
    act(() => vi.advanceTimersByTime(CHANGE_DEBOUNCE_MS));
    type(" 4");
    // The page renders with the text it was sent, while " 4" still waits.
    rerender("select");
    expect(view.state.doc.toString()).toBe("select 4");
    // A text from outside (Format, a reloaded query) replaces it.
    rerender("SELECT 4");
    expect(view.state.doc.toString()).toBe("SELECT 4");
  });

  it("hands the text and selection as they are now to actions, before the page has them", () => {
    const ref = createRef<QueryEditorHandle>();
    const onChange = vi.fn();
    const props = { schema: [], snippets: [], liveAutocomplete: false, syntax: "sql" };
    render(<QueryEditor ref={ref} value="select 1" onChange={onChange} {...props} />);
    const dom = screen.getByTestId("query-editor").querySelector(".cm-editor") as HTMLElement;
    const view = EditorView.findFromDOM(dom)!;
    act(() => {
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: "select 2 as b" },
        selection: { anchor: 7, head: 8 },
      });
    });
    expect(onChange).not.toHaveBeenCalled();
    expect(ref.current!.getText()).toBe("select 2 as b");
    expect(ref.current!.getSelection()).toBe("2");
  });
});
