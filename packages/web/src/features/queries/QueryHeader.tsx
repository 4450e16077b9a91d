// The query page's header (spec 2 §2): favorite, name, badges and the header actions.
import { CodeOutlined, EllipsisOutlined, TableOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Dropdown, Grid, Tag, Typography } from "antd";
import { useState } from "react";
import { useLocation, useNavigate } from "react-router";
import type { DataSource, Query, QueryResult } from "@sightline/core";
import { archiveQuery, forkQuery } from "../../api/queries";
import { notify } from "../../app/notifications";
import { hasPermission } from "../../app/permissions";
import { useSession } from "../../app/session";
import headerStyles from "../../components/PageHeader.module.css";
import { SubscriptionsDrawer } from "../reports/SubscriptionsDrawer";
import { FavoriteStar } from "./FavoriteStar";
import { DownloadMenu } from "./ResultsPanel";
import styles from "./QueryPage.module.css";

export type HeaderDialog = "apiKey" | "embed" | "permissions" | "addToDashboard";

interface QueryHeaderProps {
  query: Query;
  editing: boolean;
  canEdit: boolean;
  dataSource: DataSource | null;
  result: QueryResult | null;
  /** The shown visualization, the one Add to Dashboard places (none on a new query). */
  visualizationId?: number;
  onRename: (name: string) => void;
  /** Publish and Unpublish save the query with this change. */
  onSave: (changes: Partial<Query>) => void;
  onArchived: () => void;
  onOpenDialog: (kind: HeaderDialog) => void;
  /** Opens the version history (Alt+H); none on a new query. */
  onVersionHistory?: () => void;
  onRunHistory?: () => void;
  /** The applied parameter values: a new report subscription starts with them. */
  parameterValues?: Record<string, unknown>;
}

export function QueryHeader({
  query,
  editing,
  canEdit,
  dataSource,
  result,
  visualizationId,
  onRename,
  onSave,
  onArchived,
  onOpenDialog,
  onVersionHistory,
  onRunHistory,
  parameterValues,
}: QueryHeaderProps) {
  const session = useSession();
  const config = session.client_config;
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const isNew = query.id === 0;
  const [nameEditing, setNameEditing] = useState(false);
  const [subscribing, setSubscribing] = useState(false);
  const visualization = query.visualizations?.find((v) => v.id === visualizationId);
  // On a phone (narrower than antd's md breakpoint) the actions keep to one line, beside the title
  // when they fit and else below it: the secondary buttons show only their icons.
  const phone = Grid.useBreakpoint().md === false;

  const archive = () =>
    modal.confirm({
      title: "Archive Query",
      content: (
        <>
          <p>Are you sure you want to archive this query?</p>
          <p>All alerts and dashboard widgets created with its visualizations will be deleted.</p>
        </>
      ),
      okText: "Archive",
      okButtonProps: { danger: true },
      onOk: () =>
        archiveQuery(query.id).then(
          () => {
            onArchived();
            queryClient.invalidateQueries({ queryKey: ["queries"] });
          },
          () => notify.error("Query could not be archived."),
        ),
    });

  const fork = () => {
    // The tab opens within the click: browsers block a window opened later, after a slow answer.
    const tab = window.open("", "_blank");
    forkQuery(query.id).then(
      (forked) => {
        const url = `/queries/${forked.id}/source`;
        if (tab) tab.location.href = url;
        else window.open(url, "_blank");
      },
      (error: Error) => {
        tab?.close();
        notify.error(error.message);
      },
    );
  };

  const menuItems = [
    !isNew && onVersionHistory
      ? {
          key: "versionHistory",
          label: "Version History",
          extra: "Alt+H",
          onClick: onVersionHistory,
        }
      : null,
    !isNew && onRunHistory
      ? { key: "runHistory", label: "Run History", onClick: onRunHistory }
      : null,
    !isNew && hasPermission(session.user, "edit_query") && !dataSource?.view_only
      ? { key: "fork", label: "Fork", onClick: fork }
      : null,
    !isNew && canEdit && !query.is_archived
      ? { key: "archive", label: "Archive", onClick: archive }
      : null,
    !isNew && canEdit && !query.is_draft
      ? { key: "unpublish", label: "Unpublish", onClick: () => onSave({ is_draft: true }) }
      : null,
    !isNew && canEdit && config.showPermissionsControl
      ? {
          key: "permissions",
          label: "Manage Permissions",
          onClick: () => onOpenDialog("permissions"),
        }
      : null,
    !isNew && !config.disablePublicUrls
      ? { key: "apiKey", label: "Show API Key", onClick: () => onOpenDialog("apiKey") }
      : null,
    !isNew && !config.disablePublicUrls
      ? { key: "embed", label: "Embed", onClick: () => onOpenDialog("embed") }
      : null,
    !isNew && visualizationId !== undefined
      ? {
          key: "addToDashboard",
          label: "Add to Dashboard",
          onClick: () => onOpenDialog("addToDashboard"),
        }
      : null,
    !isNew && visualization
      ? { key: "subscriptions", label: "Subscriptions", onClick: () => setSubscribing(true) }
      : null,
  ].filter((i) => i !== null);

  return (
    <div className={headerStyles.header}>
      <div className={headerStyles.titleRow}>
        {!isNew && <FavoriteStar queryId={query.id} value={!!query.is_favorite} />}
        <Typography.Title
          level={3}
          className={headerStyles.title}
          data-testid="query-name"
          editable={
            canEdit
              ? {
                  editing: nameEditing,
                  onStart: () => setNameEditing(true),
                  triggerType: ["text", "icon"],
                  onChange: (value) => {
                    setNameEditing(false);
                    const name = value.trim();
                    if (name && name !== query.name) onRename(name);
                  },
                  onCancel: () => setNameEditing(false),
                }
              : false
          }
        >
          {query.name}
        </Typography.Title>
        {query.is_draft && !isNew && <Tag>Unpublished</Tag>}
        {query.is_archived && <Tag color="warning">Archived</Tag>}
      </div>
      <div className={styles.headerActions}>
        {!isNew && query.is_draft && canEdit && (
          <Button onClick={() => onSave({ is_draft: false })}>Publish</Button>
        )}
        {!editing && result && (
          <DownloadMenu queryId={query.id} resultId={result.id} compact={phone} />
        )}
        {!isNew && editing && (
          <Button
            icon={<TableOutlined />}
            aria-label={phone ? "Show Data Only" : undefined}
            title={phone ? "Show Data Only" : undefined}
            onClick={() => navigate(`/queries/${query.id}`)}
          >
            {phone ? null : "Show Data Only"}
          </Button>
        )}
        {!editing && hasPermission(session.user, "view_source") && (
          <Button
            type="primary"
            icon={<CodeOutlined />}
            onClick={() =>
              navigate(`/queries/${query.id}/source${location.search}${location.hash}`)
            }
          >
            Edit Source
          </Button>
        )}
        {menuItems.length > 0 && (
          <Dropdown trigger={["click"]} menu={{ items: menuItems }}>
            <Button
              icon={<EllipsisOutlined />}
              aria-label="More actions"
              data-testid="query-actions"
            />
          </Dropdown>
        )}
      </div>
      {subscribing && visualization && (
        <SubscriptionsDrawer
          target={{ kind: "query", query, visualization, values: parameterValues ?? {} }}
          onClose={() => setSubscribing(false)}
        />
      )}
    </div>
  );
}
