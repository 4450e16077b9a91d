// Where a drilled-to page was reached from (issue 19): "← Sales overview › Region detail", each
// crumb going back to that page as it was (its address kept its parameters).
import { ArrowLeftOutlined } from "@ant-design/icons";
import { Breadcrumb } from "antd";
import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import {
  DRILL_DOWN_TRAIL_STATE_KEY,
  drillDownBackState,
  readDrillDownTrail,
  type DrillDownCrumb,
} from "@sightline/core";
import { handedOffTrail, handOffTrail } from "../../../components/drillDown/trailHandoff";
import { isPlainLeftClick } from "../../../components/drillDown/useOpenDrillDownHref";
import styles from "./DrillDownBreadcrumbs.module.css";

/**
 * The trail this page was reached with. Applying a parameter or a cross-filter changes the
 * address in place, which drops the history state: the page keeps the trail it was opened with
 * and puts it back into the history entry, so Back, Forward and reload still find it.
 */
export function useDrillDownTrail(): DrillDownCrumb[] {
  const location = useLocation();
  const navigate = useNavigate();
  const fromState = readDrillDownTrail(location.state);
  // A page opened in a new tab by a drill-down was handed its trail (it has no history state).
  const [kept, setKept] = useState<DrillDownCrumb[]>(
    () => fromState ?? handedOffTrail(location.pathname + location.search + location.hash) ?? [],
  );
  if (fromState !== null && JSON.stringify(fromState) !== JSON.stringify(kept)) setKept(fromState);
  const dropped = fromState === null && kept.length > 0;
  useEffect(() => {
    if (!dropped) return;
    // Effects run before the next event is handled: this is still the current address.
    const { pathname, search, hash } = location;
    const state =
      typeof location.state === "object" && location.state !== null ? location.state : {};
    navigate(
      { pathname, search, hash },
      { replace: true, state: { ...state, [DRILL_DOWN_TRAIL_STATE_KEY]: kept } },
    );
  }, [dropped, kept, navigate, location]);
  return fromState ?? kept;
}

/** Shows nothing unless this page was reached through a drill-down click. */
export function DrillDownBreadcrumbs() {
  const navigate = useNavigate();
  const trail = useDrillDownTrail();
  if (trail.length === 0) return null;
  return (
    <nav aria-label="Drill-down trail" className={styles.trail} data-testid="drill-down-trail">
      <ArrowLeftOutlined className={styles.icon} aria-hidden />
      <Breadcrumb
        separator="›"
        items={trail.map((crumb, index) => ({
          key: `${index}`,
          title: (
            <a
              href={crumb.path}
              onClick={(event) => {
                const back = drillDownBackState(trail, index);
                // A new tab the browser opens for the crumb is handed the crumbs before it.
                if (!isPlainLeftClick(event))
                  return handOffTrail(crumb.path, back[DRILL_DOWN_TRAIL_STATE_KEY]);
                event.preventDefault();
                navigate(crumb.path, { state: back });
              }}
            >
              {crumb.title}
            </a>
          ),
        }))}
      />
    </nav>
  );
}
