// The dashboard's header (spec 3 §2): title (edited in place while editing), owner, tags, draft
// and archived flags, and the controls of view and edit modes.
import {
  CheckOutlined,
  EllipsisOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  ReloadOutlined,
  ShareAltOutlined,
  TagsOutlined,
} from "@ant-design/icons";
import { Button, Dropdown, Modal, Select, Space, Tag, Typography } from "antd";
import type { MenuProps } from "antd";
import { useState } from "react";
import { refreshIntervalLabel } from "@sightline/core";
import type { DashboardDetail } from "../../api/dashboards";
import { PermissionsDialog } from "../../components/PermissionsDialog";
import { usePageTitle } from "../../components/usePageTitle";
import { FavoriteToggle } from "../../components/listPage/FavoriteToggle";
import { refreshChoices } from "./refreshInterval";
import { ShareDashboardDialog, shareButtonShown } from "./ShareDashboardDialog";
import { SubscriptionsDrawer } from "../reports/SubscriptionsDrawer";
import type { SaveStatus } from "./useLayoutSaver";
import styles from "./DashboardPage.module.css";
import { UserAvatar } from "../../components/UserAvatar";

const SAVE_STATUS_TEXT: Record<SaveStatus, string> = {
  saved: "Saved",
  saving: "Saving",
  saving_failed: "Saving Failed",
};

export interface DashboardHeaderProps {
  dashboard: DashboardDetail;
  editing: boolean;
  canEdit: boolean;
  /** The permissions control is on and the user owns the dashboard or is an admin. */
  canManagePermissions: boolean;
  /** Public URLs are disabled by configuration (no Share button). */
  publicUrlsDisabled: boolean;
  /** Publishing controls disabled by configuration: no Unpublish (spec 3 §2). */
  publishDisabled?: boolean;
  saveStatus: SaveStatus;
  refreshing: boolean;
  refreshSeconds: number | null;
  allowedIntervals: readonly number[];
  fullscreen: boolean;
  allTags: readonly string[];
  onSave: (changes: { name?: string; tags?: string[]; is_draft?: boolean }) => void;
  onFavorite: (favorite: boolean) => Promise<unknown>;
  onRefresh: () => void;
  onRefreshInterval: (seconds: number | null) => void;
  onFullscreen: (on: boolean) => void;
  onEdit: () => void;
  onDoneEditing: () => void;
  onRetrySave: () => void;
  onArchive: () => void;
  onPublicUrlChange: (publicUrl: string | null) => void;
  /** Opens the version history (for all who see the dashboard). */
  onVersionHistory?: () => void;
}

export function DashboardHeader(props: DashboardHeaderProps) {
  const { dashboard, editing } = props;
  usePageTitle(dashboard.name);
  const [editingTags, setEditingTags] = useState(false);

  const title = (
    <Typography.Title
      level={3}
      className={styles.title}
      data-testid="dashboard-title"
      editable={
        editing
          ? {
              triggerType: ["text", "icon"],
              enterIcon: null,
              maxLength: 100,
              onChange: (value) => {
                const name = value.trim();
                if (name && name !== dashboard.name) props.onSave({ name });
              },
            }
          : false
      }
    >
      {dashboard.name}
    </Typography.Title>
  );

  const tags = (
    <>
      {dashboard.tags.map((tag) => (
        <Tag key={tag} color="blue">
          {tag}
        </Tag>
      ))}
      {editing && (
        <Button
          size="small"
          type="dashed"
          icon={<TagsOutlined />}
          onClick={() => setEditingTags(true)}
        >
          {dashboard.tags.length ? "Edit tags" : "Add tag"}
        </Button>
      )}
    </>
  );

  return (
    <div className={styles.header} data-testid="dashboard-header">
      <div className={styles.titleRow}>
        {!props.fullscreen && (
          <FavoriteToggle value={!!dashboard.is_favorite} save={props.onFavorite} />
        )}
        {title}
        <span className={styles.owner}>
          <UserAvatar
            size="small"
            name={dashboard.user?.name}
            imageUrl={dashboard.user?.profile_image_url}
          />
          {dashboard.user?.name}
        </span>
        {dashboard.is_draft && !dashboard.is_archived && <Tag>Unpublished</Tag>}
        {dashboard.is_archived && <Tag color="warning">Archived</Tag>}
        {tags}
      </div>
      <div className={styles.controls}>
        {editing ? <EditControls {...props} /> : <ViewControls {...props} />}
      </div>
      <TagsDialog
        open={editingTags}
        tags={dashboard.tags}
        allTags={props.allTags}
        onClose={() => setEditingTags(false)}
        onSave={(next) => {
          setEditingTags(false);
          props.onSave({ tags: next });
        }}
      />
    </div>
  );
}

function EditControls(props: DashboardHeaderProps) {
  return (
    <>
      <span className={styles.saveStatus} data-testid="save-status">
        {SAVE_STATUS_TEXT[props.saveStatus]}
      </span>
      {props.saveStatus === "saving_failed" && <Button onClick={props.onRetrySave}>Retry</Button>}
      <Button
        type="primary"
        icon={<CheckOutlined />}
        onClick={props.onDoneEditing}
        data-testid="done-editing"
      >
        Done Editing
      </Button>
    </>
  );
}

function ViewControls(props: DashboardHeaderProps) {
  const { dashboard } = props;
  const [managingPermissions, setManagingPermissions] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [subscriptions, setSubscriptions] = useState(false);
  // An archived dashboard keeps its history, to read (issue 29).
  if (dashboard.is_archived) {
    return props.onVersionHistory ? (
      <Button onClick={props.onVersionHistory}>Version History</Button>
    ) : null;
  }
  const canShare = shareButtonShown(dashboard, props.canEdit, props.publicUrlsDisabled);

  const intervalItems: MenuProps["items"] = [
    ...refreshChoices(props.allowedIntervals).map(({ seconds, disabled }) => ({
      key: String(seconds),
      label: refreshIntervalLabel(seconds),
      disabled,
    })),
  ];
  if (props.refreshSeconds !== null) {
    intervalItems.push({ type: "divider" }, { key: "off", label: "Disable auto refresh" });
  }

  const moreItems: NonNullable<MenuProps["items"]> = [];
  if (props.canEdit) moreItems.push({ key: "edit", label: "Edit" });
  if (props.onVersionHistory) moreItems.push({ key: "versionHistory", label: "Version History" });
  // Scheduled reports of the dashboard (issue 28).
  moreItems.push({ key: "subscriptions", label: "Subscriptions" });
  if (props.canManagePermissions) {
    moreItems.push({ key: "permissions", label: "Manage Permissions" });
  }
  if (props.canEdit && !dashboard.is_draft && !props.publishDisabled)
    moreItems.push({ key: "unpublish", label: "Unpublish" });
  if (props.canEdit) moreItems.push({ key: "archive", label: "Archive", danger: true });

  const onMore: MenuProps["onClick"] = ({ key }) => {
    if (key === "edit") props.onEdit();
    if (key === "versionHistory") props.onVersionHistory?.();
    if (key === "subscriptions") setSubscriptions(true);
    if (key === "permissions") setManagingPermissions(true);
    if (key === "unpublish") props.onSave({ is_draft: true });
    if (key === "archive") {
      Modal.confirm({
        title: "Archive Dashboard",
        content: `Are you sure you want to archive the "${dashboard.name}" dashboard?`,
        okText: "Archive",
        okButtonProps: { danger: true },
        cancelText: "Cancel",
        onOk: props.onArchive,
      });
    }
  };

  return (
    <>
      {dashboard.is_draft && props.canEdit && (
        <Button type="primary" onClick={() => props.onSave({ is_draft: false })}>
          Publish
        </Button>
      )}
      <Space.Compact>
        <Button
          icon={<ReloadOutlined spin={props.refreshing} />}
          onClick={props.onRefresh}
          disabled={props.refreshing}
          data-testid="dashboard-refresh"
        >
          {props.refreshSeconds !== null ? refreshIntervalLabel(props.refreshSeconds) : "Refresh"}
        </Button>
        <Dropdown
          trigger={["click"]}
          menu={{
            items: intervalItems,
            selectable: true,
            selectedKeys: props.refreshSeconds !== null ? [String(props.refreshSeconds)] : [],
            onClick: ({ key }) => props.onRefreshInterval(key === "off" ? null : Number(key)),
          }}
        >
          <Button aria-label="Refresh interval" icon={<EllipsisOutlined rotate={90} />} />
        </Dropdown>
      </Space.Compact>
      {!dashboard.is_draft && (
        <Button
          aria-label={props.fullscreen ? "Exit fullscreen" : "Fullscreen"}
          icon={props.fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
          onClick={() => props.onFullscreen(!props.fullscreen)}
          data-testid="dashboard-fullscreen"
        />
      )}
      {canShare && (
        <Button
          aria-label="Share"
          icon={<ShareAltOutlined />}
          onClick={() => setSharing(true)}
          data-testid="dashboard-share"
        />
      )}
      {moreItems.length > 0 && (
        <Dropdown trigger={["click"]} menu={{ items: moreItems, onClick: onMore }}>
          <Button
            aria-label="More actions"
            icon={<EllipsisOutlined />}
            data-testid="dashboard-more"
          />
        </Dropdown>
      )}
      {sharing && (
        <ShareDashboardDialog
          dashboard={dashboard}
          onClose={() => setSharing(false)}
          onChange={props.onPublicUrlChange}
        />
      )}
      {subscriptions && (
        <SubscriptionsDrawer
          target={{ kind: "dashboard", dashboard }}
          onClose={() => setSubscriptions(false)}
        />
      )}
      {managingPermissions && (
        <PermissionsDialog
          objectType="dashboards"
          objectId={dashboard.id}
          ownerId={dashboard.user_id}
          onClose={() => setManagingPermissions(false)}
        />
      )}
    </>
  );
}

function TagsDialog(props: {
  open: boolean;
  tags: string[];
  allTags: readonly string[];
  onClose: () => void;
  onSave: (tags: string[]) => void;
}) {
  const [value, setValue] = useState<string[]>(props.tags);
  // The suggestions list covers the dialog's buttons: it closes once a tag is added (Enter or a
  // pick), so a user who types a tag and clicks OK at once reaches OK; typing opens it again.
  const [listOpen, setListOpen] = useState(false);
  return (
    <Modal
      open={props.open}
      title="Add/Edit Tags"
      onCancel={props.onClose}
      onOk={() => props.onSave([...new Set(value.map((t) => t.trim()).filter(Boolean))])}
      okText="OK"
      afterOpenChange={(open) => open && setValue(props.tags)}
      destroyOnHidden
    >
      <Select
        mode="tags"
        autoFocus
        style={{ width: "100%" }}
        placeholder="Add some tags..."
        aria-label="Tags"
        value={value}
        onChange={setValue}
        open={listOpen}
        onOpenChange={setListOpen}
        onSearch={(text) => setListOpen(text !== "")}
        onSelect={() => setListOpen(false)}
        options={props.allTags.map((t) => ({ value: t, label: t }))}
      />
    </Modal>
  );
}
