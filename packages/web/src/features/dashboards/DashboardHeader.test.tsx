// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DashboardDetail } from "../../api/dashboards";
import { stubLayout } from "../../testing/layout";
import { renderWithQueries } from "../../testing/render";
import { DashboardHeader, type DashboardHeaderProps } from "./DashboardHeader";

beforeEach(stubLayout);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const published = {
  id: 1,
  name: "Sales",
  slug: "sales",
  user_id: 1,
  user: { id: 1, name: "Ada", email: "ada@example.com" },
  is_draft: false,
  is_archived: false,
  is_favorite: false,
  tags: [],
  version: 1,
  can_edit: true,
  widgets: [],
  options: {},
  dashboard_filters_enabled: false,
} as unknown as DashboardDetail;

const ignore = () => undefined;

function renderHeader(overrides: Partial<DashboardHeaderProps>) {
  const props: DashboardHeaderProps = {
    dashboard: published,
    editing: false,
    canEdit: true,
    canManagePermissions: false,
    publicUrlsDisabled: true,
    saveStatus: "saved",
    refreshing: false,
    refreshSeconds: null,
    allowedIntervals: [60],
    fullscreen: false,
    allTags: [],
    onSave: ignore,
    onFavorite: async () => undefined,
    onRefresh: ignore,
    onRefreshInterval: ignore,
    onFullscreen: ignore,
    onEdit: ignore,
    onDoneEditing: ignore,
    onRetrySave: ignore,
    onArchive: ignore,
    onPublicUrlChange: ignore,
    ...overrides,
  };
  renderWithQueries(
    <MemoryRouter>
      <DashboardHeader {...props} />
    </MemoryRouter>,
  );
}

async function moreMenuItems(): Promise<string[]> {
  fireEvent.click(screen.getByTestId("dashboard-more"));
  const items = await screen.findAllByRole("menuitem");
  return items.map((item) => item.textContent ?? "");
}

describe("dashboard header more-menu", () => {
  it("offers Unpublish on a published dashboard", async () => {
    renderHeader({});
    expect(await moreMenuItems()).toEqual(["Edit", "Subscriptions", "Unpublish", "Archive"]);
  });

  it("hides Unpublish when publishing is disabled by configuration", async () => {
    renderHeader({ publishDisabled: true });
    expect(await moreMenuItems()).toEqual(["Edit", "Subscriptions", "Archive"]);
  });
});
