// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { App, ConfigProvider } from "antd";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stubMatchMedia } from "../testing/matchMedia";
import { OFFLINE_MESSAGE, OfflineWarning } from "./OfflineWarning";

beforeEach(() => stubMatchMedia());
afterEach(() => cleanup());

/** Without motion: jsdom never ends the closing animation that removes a notification. */
function renderWarning() {
  render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <App>
        <OfflineWarning />
      </App>
    </ConfigProvider>,
  );
}

function setOnline(online: boolean) {
  Object.defineProperty(navigator, "onLine", { configurable: true, get: () => online });
}

describe("offline warning", () => {
  it("stays while the browser is offline and goes when it is back online", async () => {
    setOnline(true);
    renderWarning();
    expect(screen.queryByText(OFFLINE_MESSAGE)).toBeNull();
    setOnline(false);
    act(() => void window.dispatchEvent(new Event("offline")));
    await screen.findByText(OFFLINE_MESSAGE);
    setOnline(true);
    act(() => void window.dispatchEvent(new Event("online")));
    await waitFor(() => expect(screen.queryByText(OFFLINE_MESSAGE)).toBeNull());
  });

  it("shows at once when the app starts offline", async () => {
    setOnline(false);
    renderWarning();
    await screen.findByText(OFFLINE_MESSAGE);
    expect(OFFLINE_MESSAGE).toBe("Please check your Internet connection.");
  });
});
