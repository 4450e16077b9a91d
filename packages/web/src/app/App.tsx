import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { App as AntApp, ConfigProvider } from "antd";
import { createBrowserRouter, RouterProvider } from "react-router";
import { NOTIFICATION_CONFIG, NotificationsBridge } from "./notifications";
import { OfflineWarning } from "./OfflineWarning";
import { routes } from "./routes";
import { SessionExpiredModal } from "./SessionExpiredModal";
import { themeForBrowser } from "./theme";

// networkMode "always": while the browser says it is offline, calls are still made and fail with
// the connection message (spec 1 §8), so a Save says what happened and keeps what was typed;
// TanStack's default ("online") pauses them and the button spins with no word.
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { refetchOnWindowFocus: false, retry: false, networkMode: "always" },
    mutations: { networkMode: "always" },
  },
});

const router = createBrowserRouter(routes);
const theme = themeForBrowser();

/** Content blocks are white cards with a subtle shadow (UI.md). */
const cardStyle = { boxShadow: "var(--ant-box-shadow-tertiary)" };

export function App() {
  return (
    <ConfigProvider theme={theme} card={{ style: cardStyle }}>
      <AntApp notification={NOTIFICATION_CONFIG}>
        <QueryClientProvider client={queryClient}>
          <NotificationsBridge />
          <OfflineWarning />
          <SessionExpiredModal />
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
