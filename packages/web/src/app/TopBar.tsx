import {
  CloudUploadOutlined,
  DownOutlined,
  LogoutOutlined,
  MenuOutlined,
  PlusOutlined,
  QuestionCircleOutlined,
  SettingOutlined,
  UserOutlined,
  DashboardOutlined,
} from "@ant-design/icons";
import { Button, Drawer, Dropdown, Layout, Menu, type MenuProps } from "antd";
import { useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { SightlineMark } from "../components/SightlineMark";
import { UPDATE_INFO_URL } from "./externalLinks";
import { hasCreateMenu, navigationFor, type Navigation } from "./navigation";
import { useSession } from "./session";
import type { ShellActions } from "./shellActions";
import styles from "./layout.module.css";
import { UserAvatar } from "../components/UserAvatar";

type TopBarActions = ShellActions;

type MenuItem = NonNullable<MenuProps["items"]>[number];

/** Which main section the current path belongs to (highlighted in the bar). */
function activeSection(pathname: string): string {
  const first = pathname.split("/")[1] ?? "";
  if (first === "dashboard") return "dashboards";
  return first;
}

function mainItems(nav: Navigation): MenuItem[] {
  const items: MenuItem[] = [];
  if (nav.dashboards)
    items.push({ key: "dashboards", label: <Link to="/dashboards">Dashboards</Link> });
  if (nav.queries) items.push({ key: "queries", label: <Link to="/queries">Queries</Link> });
  if (nav.alerts) items.push({ key: "alerts", label: <Link to="/alerts">Alerts</Link> });
  return items;
}

function createItems(nav: Navigation, actions: TopBarActions): MenuItem[] {
  const items: MenuItem[] = [];
  if (nav.createQuery)
    items.push({ key: "new-query", label: <Link to="/queries/new">Query</Link> });
  if (nav.createDashboard) {
    items.push({ key: "new-dashboard", label: "Dashboard", onClick: actions.openNewDashboard });
  }
  if (nav.createAlert) items.push({ key: "new-alert", label: <Link to="/alerts/new">Alert</Link> });
  return items;
}

function userItems(nav: Navigation): MenuItem[] {
  const items: MenuItem[] = [
    { key: "profile", icon: <UserOutlined />, label: <Link to="/users/me">Profile</Link> },
  ];
  if (nav.systemStatus) {
    items.push({
      key: "system-status",
      icon: <DashboardOutlined />,
      label: <Link to="/admin/status">System Status</Link>,
    });
  }
  items.push({ type: "divider" });
  items.push({ key: "logout", icon: <LogoutOutlined />, label: <a href="/logout">Log out</a> });
  return items;
}

function UpdateAvailableLink() {
  return (
    <Button
      type="link"
      icon={<CloudUploadOutlined />}
      href={UPDATE_INFO_URL}
      target="_blank"
      rel="noopener noreferrer"
    >
      Update Available
    </Button>
  );
}

function Brand() {
  return (
    <Link to="/" className={styles.brand} aria-label="Sightline home">
      <SightlineMark />
      <span className={styles.brandName}>Sightline</span>
    </Link>
  );
}

/** The desktop top bar (spec §2 navigation, UI.md frame). */
export function DesktopTopBar({ actions }: { actions: TopBarActions }) {
  const { user, client_config } = useSession();
  const nav = navigationFor(user, client_config);
  const { pathname } = useLocation();

  return (
    <Layout.Header className={styles.header} data-testid="top-bar">
      <Brand />
      <Menu
        mode="horizontal"
        className={styles.mainMenu}
        selectedKeys={[activeSection(pathname)]}
        items={mainItems(nav)}
        disabledOverflow
      />
      {hasCreateMenu(nav) && (
        <Dropdown menu={{ items: createItems(nav, actions) }} trigger={["click"]}>
          <Button type="primary" icon={<PlusOutlined />} data-testid="create-menu">
            Create <DownOutlined />
          </Button>
        </Dropdown>
      )}
      <span className={styles.spacer} />
      <div className={styles.right}>
        {nav.updateAvailable && <UpdateAvailableLink />}
        <Button type="text" icon={<QuestionCircleOutlined />} onClick={actions.openHelp}>
          Help
        </Button>
        {nav.settingsPath && (
          <Link to={nav.settingsPath} className={styles.barLink} data-testid="settings-link">
            <SettingOutlined /> Settings
          </Link>
        )}
        <Dropdown menu={{ items: userItems(nav) }} trigger={["click"]} placement="bottomRight">
          <Button type="text" className={styles.userButton} data-testid="user-menu">
            <UserAvatar size={24} name={user.name} imageUrl={user.profile_image_url} />
            <span className={styles.userName}>{user.name}</span>
            <DownOutlined />
          </Button>
        </Dropdown>
      </div>
    </Layout.Header>
  );
}

/** Phones: the bar collapses into a menu button opening a drawer with the same items. */
export function MobileTopBar({ actions }: { actions: TopBarActions }) {
  const { user, client_config } = useSession();
  const nav = navigationFor(user, client_config);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);

  const items: MenuItem[] = [...mainItems(nav)];
  const create = createItems(nav, actions);
  if (create.length > 0) {
    items.push({ type: "group", key: "create", label: "Create", children: create });
  }
  items.push({ type: "divider" });
  items.push({
    key: "help",
    icon: <QuestionCircleOutlined />,
    label: "Help",
    onClick: actions.openHelp,
  });
  if (nav.settingsPath) {
    items.push({
      key: "settings",
      icon: <SettingOutlined />,
      label: "Settings",
      onClick: () => navigate(nav.settingsPath ?? "/"),
    });
  }
  if (nav.updateAvailable) {
    items.push({
      key: "update",
      icon: <CloudUploadOutlined />,
      label: (
        <a href={UPDATE_INFO_URL} target="_blank" rel="noopener noreferrer">
          Update Available
        </a>
      ),
    });
  }
  items.push({ type: "divider" });
  items.push(...userItems(nav));

  return (
    <Layout.Header className={styles.header} data-testid="top-bar">
      <Brand />
      <span className={styles.spacer} />
      <Button
        type="text"
        icon={<MenuOutlined />}
        aria-label="Menu"
        data-testid="mobile-menu-button"
        onClick={() => setOpen(true)}
      />
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        placement="right"
        size={280}
        title={
          <span className={styles.userButton}>
            <UserAvatar size={24} name={user.name} imageUrl={user.profile_image_url} />
            <span className={styles.userName}>{user.name}</span>
          </span>
        }
      >
        <Menu
          mode="inline"
          className={styles.drawerMenu}
          selectedKeys={[activeSection(pathname)]}
          items={items}
          onClick={() => setOpen(false)}
        />
      </Drawer>
    </Layout.Header>
  );
}
