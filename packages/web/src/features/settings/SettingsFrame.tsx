import type { ReactNode } from "react";
import { ErrorScreen } from "../../app/ErrorScreen";
import { hasPermission } from "../../app/permissions";
import { useSession } from "../../app/session";
import { PageHeader } from "../../components/PageHeader";
import { SettingsTabs } from "../../components/SettingsTabs";

interface SettingsFrameProps {
  title: string;
  area?: "settings" | "admin";
  /** The permission the page needs; without it the no-permission screen shows instead. */
  permission?: string;
  actions?: ReactNode;
  children: ReactNode;
}

/** A page of the settings or admin area: title, the area's tabs, then the page. */
export function SettingsFrame({
  title,
  area = "settings",
  permission,
  actions,
  children,
}: SettingsFrameProps) {
  const { user } = useSession();
  const allowed = !permission || hasPermission(user, permission);
  return (
    <>
      <PageHeader title={title} actions={allowed ? actions : undefined} />
      <SettingsTabs area={area} />
      {allowed ? children : <ErrorScreen error={{ status: 403 }} />}
    </>
  );
}
