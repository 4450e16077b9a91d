// The alert's view mode (spec 3 §2 /alerts/:alertId): details, Edit, the mute and Delete menu,
// and the Destinations panel.
import { EllipsisOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Alert as Banner, App, Button, Descriptions, Dropdown, Tooltip } from "antd";
import { Link, useNavigate } from "react-router";
import { deleteAlert, setAlertMuted, type Alert } from "../../api/alerts";
import { notify } from "../../app/notifications";
import { useSession } from "../../app/session";
import { PageHeader } from "../../components/PageHeader";
import { formatDateTime } from "../queries/display";
import { AlertDestinations } from "./AlertDestinations";
import { AlertStateTag } from "./AlertStateTag";
import { rearmText, selectorLabel, usesCustomTemplate } from "./alertRules";
import { ALERTS_KEY, alertKey } from "./queryKeys";
import styles from "./alerts.module.css";

export const NO_EDIT_PERMISSION = "You do not have sufficient permissions to edit this alert";

export function AlertView({ alert, canEdit }: { alert: Alert; canEdit: boolean }) {
  const { client_config: config } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { modal } = App.useApp();
  const muted = !!alert.options.muted;

  const setMuted = async (next: boolean) => {
    try {
      await setAlertMuted(alert.id, next);
    } catch {
      notify.error(next ? "Failed muting notifications." : "Failed restoring notifications.");
      return;
    }
    queryClient.setQueryData(alertKey(alert.id), {
      ...alert,
      options: { ...alert.options, muted: next },
    });
    void queryClient.invalidateQueries({ queryKey: ALERTS_KEY });
    notify.success(next ? "Notifications have been muted." : "Notifications have been restored.");
  };

  const confirmDelete = () =>
    modal.confirm({
      title: "Delete Alert",
      content: "Are you sure you want to delete this alert?",
      okText: "Delete",
      okButtonProps: { danger: true },
      cancelText: "Cancel",
      onOk: async () => {
        try {
          await deleteAlert(alert.id);
        } catch {
          notify.error("Failed deleting alert.");
          return;
        }
        queryClient.removeQueries({ queryKey: alertKey(alert.id) });
        await queryClient.invalidateQueries({ queryKey: ALERTS_KEY });
        notify.success("Alert deleted successfully.");
        navigate("/alerts");
      },
    });

  const edit = (
    <Button
      type="primary"
      disabled={!canEdit}
      onClick={() => navigate(`/alerts/${alert.id}/edit`)}
      data-testid="edit-alert"
    >
      Edit
    </Button>
  );
  const actions = (
    <>
      <Dropdown
        disabled={!canEdit}
        trigger={["click"]}
        menu={{
          items: [
            muted
              ? {
                  key: "unmute",
                  label: "Unmute Notifications",
                  onClick: () => void setMuted(false),
                }
              : { key: "mute", label: "Mute Notifications", onClick: () => void setMuted(true) },
            { type: "divider" },
            { key: "delete", label: "Delete", danger: true, onClick: confirmDelete },
          ],
        }}
      >
        <Button icon={<EllipsisOutlined />} aria-label="More actions" data-testid="alert-menu" />
      </Dropdown>
      {canEdit ? edit : <Tooltip title={NO_EDIT_PERMISSION}>{edit}</Tooltip>}
    </>
  );

  const { column, op, value } = alert.options;
  return (
    <div>
      <PageHeader
        title={alert.name}
        wrapTitle
        badges={<AlertStateTag state={alert.state} />}
        actions={actions}
      />
      <div className={styles.columns}>
        <section className={`${styles.card} ${styles.main}`}>
          {muted && (
            <Banner
              type="warning"
              showIcon
              title="Notifications are muted"
              style={{ marginBottom: 16 }}
              data-testid="muted-banner"
              action={
                canEdit && (
                  <Button size="small" onClick={() => void setMuted(false)}>
                    Unmute
                  </Button>
                )
              }
            />
          )}
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="Query">
              <Link to={`/queries/${alert.query.id}`}>{alert.query.name}</Link>
            </Descriptions.Item>
            <Descriptions.Item label="Trigger when">
              <code>{`${column ?? ""} ${op ?? ""} ${String(value ?? "")}`}</code>
            </Descriptions.Item>
            <Descriptions.Item label="Value">
              <span data-testid="alert-selector">{selectorLabel(alert.options)}</span>
            </Descriptions.Item>
            <Descriptions.Item label="State">
              <AlertStateTag state={alert.state} />
            </Descriptions.Item>
            <Descriptions.Item label="Last triggered">
              {formatDateTime(alert.last_triggered_at, config) || "Never"}
            </Descriptions.Item>
            <Descriptions.Item label="Send notification">
              {rearmText(alert.rearm)}
            </Descriptions.Item>
            <Descriptions.Item label="Template">
              {usesCustomTemplate(alert.options) ? "Custom template" : "Default template"}
            </Descriptions.Item>
            <Descriptions.Item label="Created By">{alert.user?.name ?? ""}</Descriptions.Item>
          </Descriptions>
        </section>
        <aside className={styles.side}>
          <AlertDestinations alertId={alert.id} canTest={canEdit} />
        </aside>
      </div>
    </div>
  );
}
