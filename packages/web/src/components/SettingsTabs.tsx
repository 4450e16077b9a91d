import { Tabs } from "antd";
import { useLocation, useNavigate } from "react-router";
import { ADMIN_ITEMS, availableItems, SETTINGS_ITEMS } from "../app/navigation";
import { useSession } from "../app/session";

/** The tab bar of the settings (or admin) area: the items available to the user, in order. */
export function SettingsTabs({ area = "settings" }: { area?: "settings" | "admin" }) {
  const { user } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const items = availableItems(area === "admin" ? ADMIN_ITEMS : SETTINGS_ITEMS, user);
  // The longest item path that prefixes the current path is the active tab.
  const active = items
    .filter((item) => pathname === item.path || pathname.startsWith(`${item.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0];
  if (items.length === 0) return null;
  return (
    <Tabs
      // No match (e.g. a page the user may not open): highlight nothing rather than the first tab.
      activeKey={active?.path ?? "none"}
      onChange={(key) => navigate(key)}
      items={items.map((item) => ({ key: item.path, label: item.title }))}
    />
  );
}
