// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { testWidget } from "../../testing/dashboardWidgets";
import { fullPosition } from "./gridLayout";
import { LAYOUT_SAVE_DELAY_MS, useLayoutSaver } from "./useLayoutSaver";

interface Sent {
  url: string;
  body: { options: { position: unknown } };
}

let sent: Sent[];
let fail: boolean;
/** Widgets removed on the server (another tab): their saves answer 404. */
let gone: Set<number>;

beforeEach(() => {
  vi.useFakeTimers();
  sent = [];
  fail = false;
  gone = new Set();
  // The server is not part of this test: a fake fetch plays POST api/widgets/{id}.
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as Sent["body"];
    sent.push({ url, body });
    if (fail) return new Response(JSON.stringify({ message: "down" }), { status: 500 });
    const id = Number(/widgets\/(\d+)/.exec(url)![1]);
    if (gone.has(id))
      return new Response(JSON.stringify({ message: "not found" }), { status: 404 });
    return new Response(JSON.stringify({ id, ...body }), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const widget = (id: number) => testWidget(id, { position: fullPosition({ col: 0, row: id * 3 }) });

describe("layout saving", () => {
  it("saves only the moved widgets, 2 s after the last change", async () => {
    const widgets = [widget(1), widget(2), widget(3)];
    const { result } = renderHook(() => useLayoutSaver(widgets, () => {}));
    act(() => result.current.change(new Map([[1, fullPosition({ col: 3, row: 0 })]])));
    await act(() => vi.advanceTimersByTimeAsync(LAYOUT_SAVE_DELAY_MS - 500));
    act(() => result.current.change(new Map([[2, fullPosition({ col: 3, row: 3 })]])));
    await act(() => vi.advanceTimersByTimeAsync(LAYOUT_SAVE_DELAY_MS - 500));
    expect(sent).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(sent.map((s) => s.url).sort()).toEqual(["/api/widgets/1", "/api/widgets/2"]);
    expect(sent[0]!.body.options.position).toMatchObject({ col: 3 });
    expect(result.current.status).toBe("saved");
    expect(result.current.pending.size).toBe(0);
  });

  it("says Saving Failed and saves again on retry", async () => {
    const { result } = renderHook(() => useLayoutSaver([widget(1)], () => {}));
    fail = true;
    act(() => result.current.change(new Map([[1, fullPosition({ col: 2, row: 0 })]])));
    await act(() => vi.advanceTimersByTimeAsync(LAYOUT_SAVE_DELAY_MS + 10));
    expect(result.current.status).toBe("saving_failed");
    fail = false;
    await act(async () => {
      result.current.retry();
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(result.current.status).toBe("saved");
    expect(sent).toHaveLength(2);
  });

  it("a moved widget that another tab removed is dropped, not failed on forever", async () => {
    const { result } = renderHook(() => useLayoutSaver([widget(1), widget(2)], () => {}));
    gone.add(2);
    act(() =>
      result.current.change(
        new Map([
          [1, fullPosition({ col: 3, row: 0 })],
          [2, fullPosition({ col: 3, row: 3 })],
        ]),
      ),
    );
    await act(() => vi.advanceTimersByTimeAsync(LAYOUT_SAVE_DELAY_MS + 10));
    expect(result.current.status).toBe("saved");
    expect(result.current.pending.size).toBe(0);
    let done = false;
    await act(async () => {
      done = await result.current.flush();
    });
    expect(done).toBe(true);
  });

  it("Done Editing's flush saves at once and waits for it", async () => {
    const { result } = renderHook(() => useLayoutSaver([widget(1)], () => {}));
    act(() => result.current.change(new Map([[1, fullPosition({ col: 1, row: 0 })]])));
    let done = false;
    await act(async () => {
      void result.current.flush().then((ok) => (done = ok));
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(sent).toHaveLength(1);
    expect(done).toBe(true);
  });
});
