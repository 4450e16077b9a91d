import { ExportOutlined } from "@ant-design/icons";
import { Alert, Drawer, Typography } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import styles from "./HelpDrawer.module.css";

/** Spec §9: the drawer opens 300 ms after the click, is 400 wide and gives up after 20 s. */
export const HELP_OPEN_DELAY_MS = 300;
export const HELP_DRAWER_WIDTH = 400;
export const HELP_LOAD_TIMEOUT_MS = 20_000;

/** Open state of the help drawer, opening a short moment after the click. */
export function useHelpDrawer() {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const openHelp = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(true), HELP_OPEN_DELAY_MS);
  }, []);
  const close = useCallback(() => {
    clearTimeout(timer.current);
    setOpen(false);
  }, []);
  return { open, openHelp, close };
}

type LoadState = "loading" | "loaded" | "error";

/**
 * Whether a frame that says it loaded shows a failure instead: browsers fire `load`, not
 * `error`, for a page that could not be fetched (their own error page) and for an HTTP error
 * answer. The help page is on this site, so its document can be read; a page elsewhere is
 * taken as loaded.
 */
export function loadFailed(frame: HTMLIFrameElement): boolean {
  let target: URL;
  try {
    target = new URL(frame.src, window.location.href);
  } catch {
    return true;
  }
  if (target.origin !== window.location.origin) return false;
  try {
    const href = frame.contentWindow?.location.href ?? "";
    const doc = frame.contentDocument;
    // A browser error page is on another origin (reading it throws) or at chrome-error://.
    if (!doc || href.startsWith("chrome-error:") || href === "about:blank") return true;
    return doc.contentType !== "text/html";
  } catch {
    return true;
  }
}

interface HelpDrawerProps {
  open: boolean;
  onClose: () => void;
  url: string;
}

/** The help page in a side frame, with its loading and failure states. */
export function HelpDrawer({ open, onClose, url }: HelpDrawerProps) {
  const [state, setState] = useState<LoadState>("loading");

  useEffect(() => {
    if (!open) return;
    setState("loading");
    const timer = setTimeout(
      () => setState((current) => (current === "loading" ? "error" : current)),
      HELP_LOAD_TIMEOUT_MS,
    );
    return () => clearTimeout(timer);
  }, [open, url]);

  return (
    <Drawer
      open={open}
      onClose={onClose}
      // Never wider than a phone screen.
      size={Math.min(HELP_DRAWER_WIDTH, window.innerWidth)}
      placement="right"
      title="Help"
      destroyOnHidden
      styles={{ body: { padding: 0 } }}
      extra={
        <Typography.Link href={url} target="_blank" rel="noopener noreferrer">
          <ExportOutlined /> Open in a new window
        </Typography.Link>
      }
    >
      <div className={styles.body} data-testid="help-drawer">
        {state === "loading" && <div className={styles.loading}>Loading...</div>}
        {state === "error" ? (
          <Alert
            className={styles.error}
            type="error"
            showIcon
            title="Something went wrong."
            description={
              <Typography.Link href={url} target="_blank" rel="noopener noreferrer">
                Open the page in a new window
              </Typography.Link>
            }
          />
        ) : (
          <iframe
            className={styles.frame}
            style={{ visibility: state === "loaded" ? "visible" : "hidden" }}
            src={url}
            title="Help"
            onLoad={(event) => setState(loadFailed(event.currentTarget) ? "error" : "loaded")}
            onError={() => setState("error")}
          />
        )}
      </div>
    </Drawer>
  );
}
