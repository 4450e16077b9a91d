import { Button, Modal } from "antd";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
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
  // The browser refused the popup: the login page is offered as a link to a new tab instead of
  // leaving this page, which would lose what it holds (unsaved query text, a waiting run).
  const [blocked, setBlocked] = useState(false);

  useEffect(() => {
    if (!expired) return;
    function onMessage(event: MessageEvent) {
      if (event.origin !== window.location.origin) return;
      const data: unknown = event.data;
      if (!data || typeof data !== "object" || !("type" in data)) return;
      if (data.type !== SESSION_RESTORED_MESSAGE) return;
      restored();
    }
    // However the page learns it, the login popup (if open) closes and the calls retry.
    function restored() {
      popup.current?.close();
      popup.current = null;
      setBlocked(false);
      loginWaiter.restored();
    }
    // Logged in again in another tab (not through the popup): the page notices on its own, so
    // nobody reloads it and loses what it holds.
    function probe() {
      getSession().then(
        (session) => {
          if (isAuthenticated(session)) restored();
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
    if (!popup.current) setBlocked(true);
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
      {blocked && (
        <p data-testid="session-expired-tab">
          {/* An opener link: the login page tells this page once the session is back. */}
          <a href={loginPopupUrl()} target="_blank" rel="opener">
            Open the login page in a new tab
          </a>
        </p>
      )}
    </Modal>
  );
}
