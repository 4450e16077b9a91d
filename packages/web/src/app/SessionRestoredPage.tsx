import { Result } from "antd";
import { useEffect } from "react";
import { SESSION_RESTORED_MESSAGE } from "../api/sessionExpiry";
import { usePageTitle } from "../components/usePageTitle";

/**
 * The login popup lands here after logging in: it tells the window that opened it that the
 * session is back (that window then closes the popup and retries its calls).
 */
export default function SessionRestoredPage() {
  usePageTitle("Logged in");
  useEffect(() => {
    window.opener?.postMessage({ type: SESSION_RESTORED_MESSAGE }, window.location.origin);
  }, []);
  return <Result status="success" title="You are logged in again. You can close this window." />;
}
