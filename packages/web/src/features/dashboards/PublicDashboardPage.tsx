// /public/dashboards/{token} (spec 3, public dashboard page): a shared dashboard, read only, for
// visitors without a session. The token is the API key of every call the page makes.
import { useQuery } from "@tanstack/react-query";
import { Card, Result, Spin, Typography } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { useParams } from "react-router";
import { getClientConfig } from "../../api/config";
import { getPublicDashboard, type PublicDashboard } from "../../api/dashboards";
import { isApiError } from "../../api/errors";
import { http } from "../../api/http";
import { ErrorScreen } from "../../app/ErrorScreen";
import { PRODUCT_NAME, usePageTitle } from "../../components/usePageTitle";
import { SignedInLinksContext } from "../../visualizations";
import { DashboardGrid } from "./DashboardGrid";
import { DashboardWidgetCard } from "./DashboardWidget";
import { DashboardFilterBar } from "./DashboardFilterBar";
import { useDashboardFiltering } from "./useDashboardFiltering";
import { widgetPositions } from "./widgetSize";
import styles from "./PublicDashboardPage.module.css";

export const PUBLIC_NOT_FOUND = "Sorry, we couldn't find anything.";

const ignore = () => {};

/** The share key refused: the address was withdrawn (or never was one). */
const refusesKey = (error: unknown) =>
  isApiError(error) && [400, 401, 403, 404].includes(error.status);

export default function PublicDashboardPage() {
  const { token = "" } = useParams();
  // Set before the first call leaves: the share key authorises everything this page loads.
  useState(() => http.setApiKey(token));
  const config = useQuery({
    queryKey: ["client-config"],
    queryFn: getClientConfig,
    staleTime: 5 * 60_000,
    retry: false,
  });
  const enabled = !!config.data && !config.data.client_config.disablePublicUrls;
  const dashboard = useQuery({
    queryKey: ["public-dashboard", token],
    queryFn: () => getPublicDashboard(token),
    enabled,
    retry: false,
    refetchOnWindowFocus: false,
  });

  const [withdrawn, setWithdrawn] = useState(false);

  // The configuration did not come (e.g. no network): say so rather than stay blank.
  if (config.isError) {
    return (
      <div className={styles.page}>
        <ErrorScreen error={config.error} />
      </div>
    );
  }
  // Nothing at all until the configuration says public addresses are on.
  if (!enabled) return null;
  if (dashboard.isPending)
    return (
      <div className={styles.loading} data-testid="public-dashboard-loading">
        <Spin size="large" />
      </div>
    );
  if (dashboard.isError || withdrawn) {
    const missing = withdrawn || refusesKey(dashboard.error);
    return (
      <div className={styles.page}>
        {missing ? (
          <Card data-testid="public-dashboard-not-found">
            <Result status="404" title={PUBLIC_NOT_FOUND} />
          </Card>
        ) : (
          <ErrorScreen error={dashboard.error} />
        )}
      </div>
    );
  }
  // Visitors are not signed in: drill-down links to signed-in pages show as plain values.
  return (
    <SignedInLinksContext value={false}>
      <LoadedPublicDashboard
        dashboard={dashboard.data}
        token={token}
        onWithdrawn={() => setWithdrawn(true)}
      />
    </SignedInLinksContext>
  );
}

/**
 * A share withdrawn while a visitor has the page open: the widgets' next runs are refused as if
 * a result were missing ("please execute again"). Once runs end, the share is checked again, and
 * a refused key turns the page into the not-found card a reload would show.
 */
function useWithdrawnCheck(anyRunning: boolean, token: string, onWithdrawn: () => void) {
  const ran = useRef(false);
  useEffect(() => {
    if (anyRunning) {
      ran.current = true;
      return;
    }
    if (!ran.current) return;
    ran.current = false;
    getPublicDashboard(token).catch((error: unknown) => {
      if (refusesKey(error)) onWithdrawn();
    });
  }, [anyRunning]);
}

function LoadedPublicDashboard({
  dashboard,
  token,
  onWithdrawn,
}: {
  dashboard: PublicDashboard;
  token: string;
  onWithdrawn: () => void;
}) {
  usePageTitle(dashboard.name);
  const widgets = useMemo(
    () => (dashboard.widgets ?? []).filter((w) => !w.options.isHidden),
    [dashboard.widgets],
  );
  // Read-only viewers filter too (`cf` in the public address).
  const filtering = useDashboardFiltering(
    widgets,
    dashboard.options ?? {},
    dashboard.dashboard_filters_enabled,
  );
  useWithdrawnCheck(filtering.reports.anyRunning, token, onWithdrawn);
  const positions = useMemo(() => widgetPositions(widgets), [widgets]);

  return (
    <div className={styles.page} data-testid="public-dashboard">
      <Typography.Title level={3} className={styles.title} data-testid="dashboard-title">
        {dashboard.name}
      </Typography.Title>
      <DashboardFilterBar {...filtering.filterBar} />
      <DashboardGrid
        widgets={widgets}
        positions={positions}
        editing={false}
        onPositionsChange={ignore}
        renderWidget={(widget) => (
          <DashboardWidgetCard
            widget={widget}
            editing={false}
            readOnly
            canViewQuery={false}
            refreshToken={0}
            onRemove={ignore}
            onEditText={ignore}
            onEditParameters={ignore}
            {...filtering.widgetProps(widget)}
          />
        )}
      />
      <footer className={styles.footer} data-testid="public-dashboard-footer">
        Powered by{" "}
        <Typography.Link href="/" target="_blank" rel="noopener noreferrer">
          {PRODUCT_NAME}
        </Typography.Link>
      </footer>
    </div>
  );
}
