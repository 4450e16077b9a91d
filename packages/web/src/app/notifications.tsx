import { App } from "antd";
import { useEffect } from "react";

/** Notifications appear bottom right and last 3 s (spec §9). */
export const NOTIFICATION_CONFIG = { placement: "bottomRight", duration: 3 } as const;

type NotificationInstance = ReturnType<typeof App.useApp>["notification"];

let instance: NotificationInstance | null = null;

/** Gives code outside React (API callbacks, event handlers) the themed notification API. */
export function NotificationsBridge() {
  const { notification } = App.useApp();
  useEffect(() => {
    instance = notification;
    return () => {
      if (instance === notification) instance = null;
    };
  }, [notification]);
  return null;
}

export const notify = {
  success(message: string, description?: string) {
    instance?.success({ title: message, description });
  },
  error(message: string, description?: string) {
    instance?.error({ title: message, description });
  },
  warning(message: string, description?: string) {
    instance?.warning({ title: message, description });
  },
};
