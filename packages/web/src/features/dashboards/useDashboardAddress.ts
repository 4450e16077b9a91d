// The address follows the dashboard's name: after a rename the new slug replaces the old one in
// place (no new history entry), keeping the flags and parameter values of the address.
import { useCallback, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import { dashboardPath } from "../../api/dashboards";

type Named = Parameters<typeof dashboardPath>[0];

export function useDashboardAddress() {
  const navigate = useNavigate();
  // The address as it is when the rename answers, not as it was when it was sent: a Done Editing
  // clicked meanwhile took ?edit off, and putting it back would reopen edit mode.
  const location = useLocation();
  const current = useRef(location);
  current.current = location;
  return useCallback(
    (dashboard: Named) => {
      const { pathname, search, hash } = current.current;
      const renamed = dashboardPath(dashboard);
      if (renamed === pathname) return;
      navigate({ pathname: renamed, search, hash }, { replace: true });
    },
    [navigate],
  );
}
