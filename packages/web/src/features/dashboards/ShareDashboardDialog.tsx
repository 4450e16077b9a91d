// Share Dashboard (spec 3 §2): turns public access by secret address on and off, and shows the
// address with a copy button. Dashboards whose queries take text parameters cannot be shared.
import { Alert, Input, Modal, Space, Switch, Typography } from "antd";
import { useState } from "react";
import {
  shareDashboard,
  unshareDashboard,
  type DashboardDetail,
  type DashboardWidget,
} from "../../api/dashboards";
import { notify } from "../../app/notifications";
import { CopyButton } from "../queries/ShareDialogs";

export const UNSAFE_SHARE_MESSAGE =
  "For your security, sharing is currently not supported for dashboards containing queries with text parameters. Consider changing the text parameters in your query to a different type.";
export const SHARE_ON_FAILED = "Failed to turn on sharing for this dashboard";
export const SHARE_OFF_FAILED = "Failed to turn off sharing for this dashboard";

/**
 * Spec 3 §2: the Share button shows unless public URLs are disabled, and only when public access
 * is already on or the user can edit a published dashboard.
 */
export function shareButtonShown(
  dashboard: Pick<DashboardDetail, "public_url" | "is_draft">,
  canEdit: boolean,
  publicUrlsDisabled: boolean,
): boolean {
  if (publicUrlsDisabled) return false;
  return !!dashboard.public_url || (canEdit && !dashboard.is_draft);
}

/** A widget whose query takes a free text value (such a query never runs for a public viewer). */
function hasUnsafeQuery(widget: DashboardWidget): boolean {
  const query = widget.visualization?.query;
  if (!query) return false;
  return query.is_safe === false || (query.options.parameters ?? []).some((p) => p.type === "text");
}

export function ShareDashboardDialog(props: {
  dashboard: DashboardDetail;
  onClose: () => void;
  /** The dashboard's public address changed (null: public access is off). */
  onChange: (publicUrl: string | null) => void;
}) {
  const { dashboard } = props;
  const [saving, setSaving] = useState(false);
  const publicUrl = dashboard.public_url ?? null;
  const unsafe = (dashboard.widgets ?? []).some(hasUnsafeQuery);

  async function toggle(on: boolean) {
    setSaving(true);
    try {
      if (on) props.onChange((await shareDashboard(dashboard.id)).public_url);
      else {
        await unshareDashboard(dashboard.id);
        props.onChange(null);
      }
    } catch {
      notify.error(on ? SHARE_ON_FAILED : SHARE_OFF_FAILED);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal open title="Share Dashboard" onCancel={props.onClose} footer={null} destroyOnHidden>
      {unsafe ? (
        <Alert type="error" showIcon title={UNSAFE_SHARE_MESSAGE} data-testid="share-unsafe" />
      ) : (
        <Space orientation="vertical" style={{ width: "100%" }} size="middle">
          <label style={{ display: "flex", alignItems: "center", gap: 8 }}>
            <Switch
              checked={publicUrl !== null}
              loading={saving}
              onChange={(on) => void toggle(on)}
              data-testid="share-toggle"
            />
            <span>Allow public access</span>
          </label>
          {publicUrl !== null && (
            <div>
              <Typography.Text type="secondary">Secret address</Typography.Text>
              <Space.Compact style={{ width: "100%" }}>
                <Input
                  readOnly
                  value={publicUrl}
                  aria-label="Secret address"
                  data-testid="share-url"
                  onFocus={(e) => e.target.select()}
                />
                <CopyButton text={publicUrl} />
              </Space.Compact>
            </div>
          )}
        </Space>
      )}
    </Modal>
  );
}
