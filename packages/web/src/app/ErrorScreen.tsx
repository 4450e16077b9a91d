import { WarningOutlined } from "@ant-design/icons";
import { Card, Result } from "antd";
import { useRouteError } from "react-router";
import { usePageTitle } from "../components/usePageTitle";
import { errorScreenMessage } from "./errorMessage";

/** The generic error screen shown in place of a page that failed (spec §2). */
export function ErrorScreen({ error }: { error: unknown }) {
  usePageTitle("Error");
  return (
    <Card>
      <Result
        icon={<WarningOutlined />}
        status="warning"
        title={<span data-testid="error-message">{errorScreenMessage(error)}</span>}
      />
    </Card>
  );
}

/** Error element of the routes: shows the error a route failed with. */
export function RouteErrorScreen() {
  return <ErrorScreen error={useRouteError()} />;
}

/** Paths no route matches. */
export function NotFoundScreen() {
  return <ErrorScreen error={{ status: 404 }} />;
}
