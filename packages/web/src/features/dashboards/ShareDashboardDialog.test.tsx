// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DashboardDetail, DashboardWidget } from "../../api/dashboards";
import { notify } from "../../app/notifications";
import { stubMatchMedia } from "../../testing/matchMedia";
import {
  SHARE_OFF_FAILED,
  SHARE_ON_FAILED,
  ShareDashboardDialog,
  UNSAFE_SHARE_MESSAGE,
  shareButtonShown,
} from "./ShareDashboardDialog";

let sent: { method: string; url: string }[];
let answer: () => Response;

beforeEach(() => {
  sent = [];
  // The server is not part of this test: a fake fetch plays the share calls.
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    sent.push({ method: init.method ?? "GET", url });
    return answer();
  });
  stubMatchMedia();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function widgetWith(parameterType: string): DashboardWidget {
  return {
    id: 1,
    options: {},
    visualization: {
      id: 2,
      type: "TABLE",
      name: "Table",
      options: {},
      query: { id: 3, name: "Q", options: { parameters: [{ name: "p", type: parameterType }] } },
    },
  } as unknown as DashboardWidget;
}

function dashboard(widgets: DashboardWidget[], publicUrl?: string): DashboardDetail {
  return { id: 7, name: "Board", widgets, public_url: publicUrl } as unknown as DashboardDetail;
}

describe("Share Dashboard dialog", () => {
  it("refuses dashboards whose queries take text parameters, with the spec's text", () => {
    render(
      <ShareDashboardDialog
        dashboard={dashboard([widgetWith("number"), widgetWith("text")])}
        onClose={() => undefined}
        onChange={() => undefined}
      />,
    );
    expect(screen.getByTestId("share-unsafe").textContent).toContain(UNSAFE_SHARE_MESSAGE);
    expect(screen.queryByTestId("share-toggle")).toBeNull();
  });

  it("turns sharing on and shows the secret address", async () => {
    const address = "http://x/public/dashboards/abc?org_slug=default";
    answer = () => new Response(JSON.stringify({ public_url: address, api_key: "abc" }));
    const onChange = vi.fn();
    const { rerender } = render(
      <ShareDashboardDialog
        dashboard={dashboard([widgetWith("number")])}
        onClose={() => undefined}
        onChange={onChange}
      />,
    );
    expect(screen.queryByTestId("share-url")).toBeNull();
    fireEvent.click(screen.getByTestId("share-toggle"));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(address));
    expect(sent).toEqual([{ method: "POST", url: "/api/dashboards/7/share" }]);
    rerender(
      <ShareDashboardDialog
        dashboard={dashboard([widgetWith("number")], address)}
        onClose={() => undefined}
        onChange={onChange}
      />,
    );
    expect((screen.getByTestId("share-url") as HTMLInputElement).value).toBe(address);
  });

  it("says which way a failed toggle went", async () => {
    answer = () => new Response(JSON.stringify({ message: "no" }), { status: 500 });
    const error = vi.spyOn(notify, "error").mockImplementation(() => undefined);
    const { rerender } = render(
      <ShareDashboardDialog
        dashboard={dashboard([])}
        onClose={() => undefined}
        onChange={() => undefined}
      />,
    );
    fireEvent.click(screen.getByTestId("share-toggle"));
    await waitFor(() => expect(error).toHaveBeenCalledWith(SHARE_ON_FAILED));
    rerender(
      <ShareDashboardDialog
        dashboard={dashboard([], "http://x/public/dashboards/abc")}
        onClose={() => undefined}
        onChange={() => undefined}
      />,
    );
    fireEvent.click(screen.getByTestId("share-toggle"));
    await waitFor(() => expect(error).toHaveBeenCalledWith(SHARE_OFF_FAILED));
  });
});

describe("Share button", () => {
  const published = { is_draft: false, public_url: undefined };
  it("shows for editors of published dashboards, or while public access is on", () => {
    expect(shareButtonShown(published, true, false)).toBe(true);
    expect(shareButtonShown(published, false, false)).toBe(false);
    expect(shareButtonShown({ ...published, is_draft: true }, true, false)).toBe(false);
    expect(shareButtonShown({ is_draft: true, public_url: "http://x" }, false, false)).toBe(true);
  });
  it("never shows when public URLs are disabled", () => {
    expect(shareButtonShown({ is_draft: false, public_url: "http://x" }, true, true)).toBe(false);
  });
});
