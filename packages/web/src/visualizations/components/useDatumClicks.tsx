// Clicks on values turned into the host's actions (issue 25). One action runs at once; several
// are offered in a small menu at the click, as Superset's context menu and Metabase's click
// actions do. The second click of a double click is no new click: a double click on a bar selects
// it once, and opens the menu once.
import { Dropdown } from "antd";
import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type MouseEvent as ReactMouseEvent,
  type ReactNode,
} from "react";
import type { DatumAction, DatumClick } from "../types";

/** The tooltip line: "Click to open Country detail or filter the dashboard". */
export function clickHint(actions: readonly DatumAction[] | undefined): string | undefined {
  const hints = (actions ?? []).map((a) => a.hint).filter((h) => h !== "");
  return hints.length > 0 ? `Click to ${hints.join(" or ")}` : undefined;
}

/** A press of the mouse that is the second (or third) of a double click, not a click of its own. */
export const isRepeatClick = (event: { detail?: number }) => (event.detail ?? 0) > 1;

interface Pending {
  click: DatumClick;
  /** Where the menu opens, in the visualization's own pixels. */
  x: number;
  y: number;
}

export interface DatumClicks {
  /** On the element around the visualization: sees each click before the renderer does. */
  wrapperProps: {
    ref: React.RefObject<HTMLDivElement | null>;
    onClickCapture: (event: ReactMouseEvent<HTMLDivElement>) => void;
  };
  /** For the renderer; undefined without actions (no pointer, no click handling). */
  onDatumClick: ((click: DatumClick) => void) | undefined;
  /** The menu of actions while it is open. */
  menu: ReactNode;
  menuOpen: boolean;
}

export function useDatumClicks(actions: readonly DatumAction[] | undefined): DatumClicks {
  const ref = useRef<HTMLDivElement>(null);
  // The click the browser is dispatching: its count and where it is, read by onDatumClick while
  // the renderer reports it (ECharts does so from its own listener, inside the same dispatch).
  const current = useRef<{ detail: number; x: number; y: number } | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);

  const onClickCapture = (event: ReactMouseEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    current.current = {
      detail: event.detail,
      x: event.clientX - box.left,
      y: event.clientY - box.top,
    };
    setTimeout(() => {
      current.current = null;
    }, 0);
  };

  const onDatumClick = useMemo(() => {
    if (!actions || actions.length === 0) return undefined;
    return (click: DatumClick) => {
      const at = current.current;
      if (at && isRepeatClick(at)) return;
      if (actions.length === 1) return actions[0]!.run(click);
      // From the keyboard (Enter on a value) the menu opens in the middle.
      const box = ref.current?.getBoundingClientRect();
      setPending({
        click,
        x: at?.x ?? (box ? box.width / 2 : 0),
        y: at?.y ?? (box ? box.height / 2 : 0),
      });
    };
  }, [actions]);

  // The menu closes on a press elsewhere (not the second press of the double click that opened
  // it), on Escape, and when the actions change.
  useEffect(() => {
    if (!pending) return;
    const onPress = (event: MouseEvent) => {
      if (isRepeatClick(event)) return;
      const target = event.target as Element | null;
      if (target?.closest?.("[data-datum-actions]")) return;
      setPending(null);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      // Only the menu closes; the page's own Escape (removing a filter) waits.
      event.stopPropagation();
      setPending(null);
    };
    document.addEventListener("mousedown", onPress, true);
    document.addEventListener("keydown", onKey, true);
    return () => {
      document.removeEventListener("mousedown", onPress, true);
      document.removeEventListener("keydown", onKey, true);
    };
  }, [pending]);
  useEffect(() => setPending(null), [actions]);

  const menu =
    pending && actions && actions.length > 1 ? (
      <Dropdown
        open
        trigger={[]}
        autoFocus
        placement="bottomLeft"
        popupRender={(node) => <div data-datum-actions="">{node}</div>}
        menu={{
          items: actions.map((a) => ({ key: a.key, label: a.label(pending.click) })),
          onClick: ({ key, domEvent }) => {
            if (isRepeatClick(domEvent as unknown as MouseEvent)) return;
            setPending(null);
            actions.find((a) => a.key === key)?.run(pending.click);
          },
        }}
      >
        <span
          aria-hidden
          style={{ position: "absolute", left: pending.x, top: pending.y, width: 1, height: 1 }}
        />
      </Dropdown>
    ) : null;

  return { wrapperProps: { ref, onClickCapture }, onDatumClick, menu, menuOpen: menu !== null };
}
