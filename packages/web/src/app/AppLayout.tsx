import { Grid, Layout } from "antd";
import { lazy, Suspense, useState } from "react";
import { Outlet } from "react-router";
import { HelpDrawer, useHelpDrawer } from "../components/HelpDrawer";
import { HELP_URL } from "./externalLinks";
import { SessionGate } from "./session";
import { ShellActionsContext, type ShellActions } from "./shellActions";
import { DesktopTopBar, MobileTopBar } from "./TopBar";
import styles from "./layout.module.css";

const NewDashboardDialog = lazy(() => import("../features/dashboards/NewDashboardDialog"));

/** The frame of every logged-in page: top bar, content, help drawer, New Dashboard dialog. */
function Frame() {
  const screens = Grid.useBreakpoint();
  // Phones are narrower than 768 px (antd's md breakpoint); unknown before the first measure.
  const phone = screens.md === false;
  const help = useHelpDrawer();
  const [newDashboardOpen, setNewDashboardOpen] = useState(false);
  const actions: ShellActions = {
    openHelp: help.openHelp,
    openNewDashboard: () => setNewDashboardOpen(true),
  };

  return (
    <ShellActionsContext.Provider value={actions}>
      <Layout className={styles.shell}>
        {phone ? <MobileTopBar actions={actions} /> : <DesktopTopBar actions={actions} />}
        <Layout.Content className={styles.content}>
          <Outlet />
        </Layout.Content>
        <HelpDrawer open={help.open} onClose={help.close} url={HELP_URL} />
        {newDashboardOpen && (
          <Suspense fallback={null}>
            <NewDashboardDialog
              open={newDashboardOpen}
              onClose={() => setNewDashboardOpen(false)}
            />
          </Suspense>
        )}
      </Layout>
    </ShellActionsContext.Provider>
  );
}

export function AppLayout() {
  return (
    <SessionGate>
      <Frame />
    </SessionGate>
  );
}
