// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { App } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stubMatchMedia } from "../../testing/matchMedia";
import { renderWithQueries } from "../../testing/render";
import { json } from "../../testing/responses";
import { notify } from "../../app/notifications";
import { AlertDestinations, MAIL_NOT_CONFIGURED } from "./AlertDestinations";

vi.mock("../../app/notifications", () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const session = {
  user: { id: 7, name: "Pat", email: "pat@example.com", permissions: ["list_alerts"] },
  client_config: { mailSettingsMissing: false },
};
vi.mock("../../app/session", () => ({ useSession: () => session }));

const DESTINATIONS = [
  { id: 1, name: "Ops hook", type: "webhook", icon: "" },
  { id: 2, name: "Team Slack", type: "slack", icon: "" },
  { id: 3, name: "Pager", type: "pagerduty", icon: "" },
];

interface Sent {
  method: string;
  path: string;
  body: unknown;
}
let sent: Sent[];
let subscriptions: unknown[];
let failDestination: number | null;

beforeEach(() => {
  sent = [];
  failDestination = null;
  session.client_config.mailSettingsMissing = false;
  // Pager is already on the alert, added by another user; the caller may not remove it.
  subscriptions = [{ id: 50, alert_id: 9, user: { id: 8 }, destination: DESTINATIONS[2] }];
  // The server is not part of this test: a fake fetch plays the subscription routes.
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    const path = new URL(url, "http://localhost").pathname;
    const method = init.method ?? "GET";
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
    sent.push({ method, path, body });
    if (path === "/api/destinations") return json(DESTINATIONS);
    if (path === "/api/alerts/9/subscriptions" && method === "GET") return json(subscriptions);
    if (path === "/api/alerts/9/subscriptions" && method === "POST") {
      if (body?.destination_id === failDestination) return json({ message: "No." }, 400);
      return json({ id: 60, alert_id: 9, user: { id: 7 } });
    }
    return json({ message: "Not found" }, 404);
  });
  stubMatchMedia();
  vi.mocked(notify.error).mockClear();
  vi.mocked(notify.success).mockClear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPanel() {
  renderWithQueries(
    <App>
      <AlertDestinations alertId={9} canTest={false} />
    </App>,
  );
}

const posts = () => sent.filter((s) => s.method === "POST").map((s) => s.body);

describe("the alert's Destinations panel", () => {
  it("subscribes the caller by e-mail with the switch (no destination)", async () => {
    renderPanel();
    await screen.findByText("Pager");
    expect(screen.queryByRole("button", { name: "Remove Pager" })).toBeNull();
    fireEvent.click(screen.getByRole("switch", { name: "Notify me by e-mail" }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith("Subscribed."));
    expect(posts()).toEqual([{ alert_id: 9 }]);
  });

  it("hides the e-mail switch and warns when the mail server is not configured", async () => {
    session.client_config.mailSettingsMissing = true;
    renderPanel();
    await screen.findByText(MAIL_NOT_CONFIGURED);
    expect(screen.queryByRole("switch")).toBeNull();
  });

  it("adds the chosen destinations, offering only those not on the alert, and reports failures", async () => {
    failDestination = 2;
    renderPanel();
    await screen.findByText("Pager");
    fireEvent.click(screen.getByTestId("add-destinations"));
    await screen.findByText("Add Existing Alert Destinations");
    expect(screen.queryByTestId("destination-choice-3")).toBeNull();
    const save = screen.getByTestId("save-destinations");
    expect(save).toHaveProperty("disabled", true);
    fireEvent.click(screen.getByTestId("destination-choice-1"));
    fireEvent.click(screen.getByTestId("destination-choice-2"));
    expect(save.textContent).toContain("Save (2)");
    fireEvent.click(save);
    await waitFor(() =>
      expect(notify.error).toHaveBeenCalledWith("Failed to save some of selected items."),
    );
    expect(posts()).toEqual([
      { alert_id: 9, destination_id: 1 },
      { alert_id: 9, destination_id: 2 },
    ]);
  });
});
