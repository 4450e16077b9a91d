// A TABLE (or DETAILS) column linked to a dashboard or query (issue 19): each cell is a real link
// to the target with the row's values as its parameters, so a middle click or Ctrl/⌘-click opens
// a new tab as on any link; a plain click opens it inside the app, with a breadcrumb back.
import type { MouseEvent, ReactNode } from "react";
import { useInRouterContext } from "react-router";
import { drillDownHref, readDrillDownLink, type DrillDownLink } from "@sightline/core";
import {
  isPlainLeftClick,
  useHandOffTrail,
  useOpenDrillDownHref,
} from "../../components/drillDown/useOpenDrillDownHref";
import { useSignedInLinks } from "../signedInLinks";
import type { Row } from "../types";
import type { ColumnOptions } from "./columns";

/** The column's drill-down link (its `drillDown` option), when it shows links. */
export function columnDrillDown(column: ColumnOptions): DrillDownLink | null {
  return column.displayAs === "link" ? readDrillDownLink(column.drillDown) : null;
}

interface DrillDownLinkCellProps {
  link: DrillDownLink;
  row: Row;
  text: string;
  title: string;
}

export function DrillDownLinkCell(props: DrillDownLinkCellProps) {
  const inRouter = useInRouterContext();
  // A visitor of a public page cannot open signed-in pages: the value is shown, not linked.
  if (!useSignedInLinks())
    return (
      <span title={props.title || undefined} data-drill-down-text="">
        {props.text}
      </span>
    );
  // Outside the app's router (a bare renderer), the link is an ordinary one.
  return inRouter ? <RouterLink {...props} /> : <PlainLink {...props} />;
}

function PlainLink({
  link,
  row,
  text,
  title,
  onClick,
  onAuxClick,
}: DrillDownLinkCellProps & {
  onClick?: (e: MouseEvent<HTMLAnchorElement>) => void;
  onAuxClick?: (e: MouseEvent<HTMLAnchorElement>) => void;
}) {
  const href = drillDownHref(link, row);
  return (
    <a
      href={href}
      title={title || undefined}
      data-drill-down-link=""
      // The click is the link's: it does not also select the cell's value on the dashboard.
      onClick={(event) => {
        event.stopPropagation();
        onClick?.(event);
      }}
      onAuxClick={onAuxClick}
      {...(link.newTab ? { target: "_blank", rel: "noopener noreferrer" } : {})}
    >
      {text || href}
    </a>
  );
}

function RouterLink(props: DrillDownLinkCellProps): ReactNode {
  const open = useOpenDrillDownHref();
  const handOff = useHandOffTrail();
  return (
    <PlainLink
      {...props}
      onClick={(event) => {
        const href = event.currentTarget.getAttribute("href") ?? "";
        // The browser opens a new tab itself: that tab is handed the breadcrumb trail.
        if (props.link.newTab || !isPlainLeftClick(event)) return handOff(href);
        event.preventDefault();
        open(href, false);
      }}
      onAuxClick={(event) => {
        if (event.button === 1) handOff(event.currentTarget.getAttribute("href") ?? "");
      }}
    />
  );
}
