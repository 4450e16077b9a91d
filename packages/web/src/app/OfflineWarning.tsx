import { App } from "antd";
import { useEffect } from "react";

export const OFFLINE_MESSAGE = "Please check your Internet connection.";
const KEY = "offline";

/**
 * While the browser is offline a warning stays on screen (spec 2 §4), and goes once it is back
 * online: requests made meanwhile fail, and this says why before they do.
 */
export function OfflineWarning() {
  const { notification } = App.useApp();
  useEffect(() => {
    const offline = () => notification.warning({ key: KEY, title: OFFLINE_MESSAGE, duration: 0 });
    const online = () => notification.destroy(KEY);
    if (!navigator.onLine) offline();
    window.addEventListener("offline", offline);
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("offline", offline);
      window.removeEventListener("online", online);
    };
  }, [notification]);
  return null;
}
