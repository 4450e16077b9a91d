import { Skeleton } from "antd";
import type { ComponentType } from "react";
import type { RouteObject } from "react-router";
import { AppLayout } from "./AppLayout";
import { ShellSkeleton } from "./ShellSkeleton";
import { NotFoundScreen, RouteErrorScreen } from "./ErrorScreen";

/** Every logged-in path of the spec (route ids follow spec 1 §2). */
const sessionRoutes: RouteObject[] = [
  { index: true, lazy: () => import("../features/home/HomePage").then(asComponent) },

  {
    id: "Dashboards.List",
    path: "dashboards",
    lazy: () => import("../features/dashboards/DashboardListPage").then(asComponent),
  },
  {
    id: "Dashboards.Favorites",
    path: "dashboards/favorites",
    lazy: () => import("../features/dashboards/DashboardListPage").then(asComponent),
  },
  {
    id: "Dashboards.My",
    path: "dashboards/my",
    lazy: () => import("../features/dashboards/DashboardListPage").then(asComponent),
  },
  {
    id: "Dashboards.Archive",
    path: "dashboards/archive",
    lazy: () => import("../features/dashboards/DashboardListPage").then(asComponent),
  },
  {
    id: "Dashboards.ViewOrEdit",
    path: "dashboards/:dashboardId",
    lazy: () => import("../features/dashboards/DashboardPage").then(asComponent),
  },
  {
    id: "Dashboards.LegacyViewOrEdit",
    path: "dashboard/:dashboardSlug",
    lazy: () => import("../features/dashboards/DashboardPage").then(asComponent),
  },

  {
    id: "Queries.List",
    path: "queries",
    lazy: () => import("../features/queries/QueryListPage").then(asComponent),
  },
  {
    id: "Queries.Favorites",
    path: "queries/favorites",
    lazy: () => import("../features/queries/QueryListPage").then(asComponent),
  },
  {
    id: "Queries.Archived",
    path: "queries/archive",
    lazy: () => import("../features/queries/QueryListPage").then(asComponent),
  },
  {
    id: "Queries.My",
    path: "queries/my",
    lazy: () => import("../features/queries/QueryListPage").then(asComponent),
  },
  {
    id: "Queries.New",
    path: "queries/new",
    lazy: () => import("../features/queries/QueryPage").then(asComponent),
  },
  {
    id: "Queries.View",
    path: "queries/:queryId",
    lazy: () => import("../features/queries/QueryPage").then(asComponent),
  },
  {
    id: "Queries.Edit",
    path: "queries/:queryId/source",
    lazy: () => import("../features/queries/QueryPage").then(asComponent),
  },

  {
    id: "Alerts.List",
    path: "alerts",
    lazy: () => import("../features/alerts/AlertListPage").then(asComponent),
  },
  {
    id: "Alerts.New",
    path: "alerts/new",
    lazy: () => import("../features/alerts/AlertPage").then(asComponent),
  },
  {
    id: "Alerts.View",
    path: "alerts/:alertId",
    lazy: () => import("../features/alerts/AlertPage").then(asComponent),
  },
  {
    id: "Alerts.Edit",
    path: "alerts/:alertId/edit",
    lazy: () => import("../features/alerts/AlertPage").then(asComponent),
  },

  {
    id: "DataSources.List",
    path: "data_sources",
    lazy: () => import("../features/dataSources/DataSourcesListPage").then(asComponent),
  },
  {
    path: "data_sources/new",
    lazy: () => import("../features/dataSources/DataSourcesListPage").then(asComponent),
  },
  {
    path: "data_sources/:dataSourceId",
    lazy: () => import("../features/dataSources/DataSourcePage").then(asComponent),
  },

  {
    path: "destinations",
    lazy: () => import("../features/destinations/DestinationsListPage").then(asComponent),
  },
  {
    path: "destinations/new",
    lazy: () => import("../features/destinations/DestinationsListPage").then(asComponent),
  },
  {
    path: "destinations/:destinationId",
    lazy: () => import("../features/destinations/DestinationPage").then(asComponent),
  },

  { path: "groups", lazy: () => import("../features/groups/GroupsListPage").then(asComponent) },
  {
    path: "groups/:groupId",
    lazy: () => import("../features/groups/GroupMembersPage").then(asComponent),
  },
  {
    path: "groups/:groupId/data_sources",
    lazy: () => import("../features/groups/GroupDataSourcesPage").then(asComponent),
  },

  { path: "users", lazy: () => import("../features/users/UsersListPage").then(asComponent) },
  {
    path: "users/pending",
    lazy: () => import("../features/users/UsersListPage").then(asComponent),
  },
  {
    path: "users/disabled",
    lazy: () => import("../features/users/UsersListPage").then(asComponent),
  },
  { path: "users/new", lazy: () => import("../features/users/UsersListPage").then(asComponent) },
  { path: "users/me", lazy: () => import("../features/users/UserProfilePage").then(asComponent) },
  {
    path: "users/:userId",
    lazy: () => import("../features/users/UserProfilePage").then(asComponent),
  },

  {
    path: "query_snippets",
    lazy: () => import("../features/querySnippets/QuerySnippetsPage").then(asComponent),
  },
  {
    path: "query_snippets/:querySnippetId",
    lazy: () => import("../features/querySnippets/QuerySnippetsPage").then(asComponent),
  },

  {
    path: "settings/general",
    lazy: () => import("../features/settings/GeneralSettingsPage").then(asComponent),
  },
  {
    path: "settings/organization",
    lazy: () => import("../features/settings/GeneralSettingsPage").then(asComponent),
  },

  {
    path: "admin/status",
    lazy: () => import("../features/admin/SystemStatusPage").then(asComponent),
  },
  {
    path: "admin/queries/jobs",
    lazy: () => import("../features/admin/JobsPage").then(asComponent),
  },
  {
    path: "admin/queries/outdated",
    lazy: () => import("../features/admin/OutdatedQueriesPage").then(asComponent),
  },

  { path: "*", Component: NotFoundScreen },
];

function asComponent(module: { default: ComponentType }) {
  return { Component: module.default };
}

/**
 * What a page without the frame shows while its lazily loaded code arrives. The router renders a
 * route's HydrateFallback until the first page's `lazy` has resolved; every top-level route needs
 * one (without it the router warns in the console, which embeds show to the embedding site).
 */
function PlainPageSkeleton() {
  return <Skeleton active style={{ padding: 12 }} />;
}

export const routes: RouteObject[] = [
  // The login popup's landing page: no session needed, no frame.
  {
    path: "/session-restored",
    HydrateFallback: PlainPageSkeleton,
    lazy: () => import("./SessionRestoredPage").then(asComponent),
  },
  // Pages opened without a session (api_key or public token), without the frame.
  {
    path: "/public/dashboards/:token",
    HydrateFallback: PlainPageSkeleton,
    lazy: () => import("../features/dashboards/PublicDashboardPage").then(asComponent),
  },
  // The report renderer's print view (issue 28): opened by the worker's browser with a run token.
  {
    path: "/reports/print/:runId",
    HydrateFallback: () => null,
    lazy: () => import("../features/reports/PrintReportPage").then(asComponent),
  },
  {
    path: "/embed/query/:queryId/visualization/:visualizationId",
    HydrateFallback: PlainPageSkeleton,
    lazy: () => import("../features/embed/EmbedQueryPage").then(asComponent),
  },
  {
    path: "/",
    Component: AppLayout,
    HydrateFallback: ShellSkeleton,
    errorElement: <RouteErrorScreen />,
    // A pathless level so that route errors render inside the frame.
    children: [{ errorElement: <RouteErrorScreen />, children: sessionRoutes }],
  },
];
