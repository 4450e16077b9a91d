import { Button, Modal } from "antd";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { loginWaiter } from "../api/http";
import { getSession, isAuthenticated } from "../api/session";
import { loginPopupUrl, SESSION_RESTORED_MESSAGE } from "../api/sessionExpiry";

const POPUP_SIZE = 640;
/** While the dialog is up, how often it checks whether the user logged in elsewhere. */
export const SESSION_PROBE_MS = 5000;

function openLoginPopup(): Window | null {
  const left = Math.max(0, window.screenX + (window.outerWidth - POPUP_SIZE) / 2);
  const top = Math.max(0, window.screenY + (window.outerHeight - POPUP_SIZE) / 2);
  return window.open(
    loginPopupUrl(),
    "sightline-login",
    `width=${POPUP_SIZE},height=${POPUP_SIZE},left=${left},top=${top}`,
  );
}

/**
 * Shown while calls wait for the user to log in again (spec §8). Login opens the login page in a
 * popup; when that popup reports the session is back, it is closed and the waiting calls retry.
 */
export function SessionExpiredModal() {
  const expired = useSyncExternalStore(loginWaiter.subscribe, loginWaiter.isExpired);
  const popup = useRef<Window | null>(null);

  useEffect(() => {
    if (!expired) return;
    function onMessage(event: MessageEvent) {
      if (event.origin !== window.location.origin) return;
      const data: unknown = event.data;
      if (!data || typeof data !== "object" || !("type" in data)) return;
      if (data.type !== SESSION_RESTORED_MESSAGE) return;
      popup.current?.close();
      popup.current = null;
      loginWaiter.restored();
    }
    // Logged in again in another tab (not through the popup): the page notices on its own, so
    // nobody reloads it and loses what it holds.
    function probe() {
      getSession().then(
        (session) => {
          if (isAuthenticated(session)) loginWaiter.restored();
        },
        () => undefined,
      );
    }
    const timer = setInterval(probe, SESSION_PROBE_MS);
    window.addEventListener("message", onMessage);
    window.addEventListener("focus", probe);
    return () => {
      clearInterval(timer);
      window.removeEventListener("message", onMessage);
      window.removeEventListener("focus", probe);
    };
  }, [expired]);

  function login() {
    popup.current = openLoginPopup();
    // A blocked popup: log in in this window instead and come back here.
    if (!popup.current) {
      const next = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      window.location.assign(`/login?next=${encodeURIComponent(next)}`);
    }
  }

  return (
    <Modal
      open={expired}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      title="Session Expired"
      footer={
        <Button type="primary" onClick={login} data-testid="session-expired-login">
          Login
        </Button>
      }
    >
      Your session has expired. Please login to continue.
    </Modal>
  );
}
