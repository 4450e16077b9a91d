// The address follows the dashboard's name: after a rename the new slug replaces the old one in
// place (no new history entry), keeping the flags and parameter values of the address.
import { useCallback } from "react";
import { useLocation, useNavigate } from "react-router";
import { dashboardPath } from "../../api/dashboards";

type Named = Parameters<typeof dashboardPath>[0];

export function useDashboardAddress() {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (dashboard: Named) => {
      const pathname = dashboardPath(dashboard);
      if (pathname === location.pathname) return;
      navigate({ pathname, search: location.search, hash: location.hash }, { replace: true });
    },
    [navigate, location.pathname, location.search, location.hash],
  );
}
