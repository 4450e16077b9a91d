import { Alert, Input, Modal } from "antd";
import { dialogFooter } from "../../components/dialogFooter";
import { useState } from "react";
import { useNavigate } from "react-router";
import { createDashboard, dashboardPath } from "../../api/dashboards";
import { recordEvent } from "../../api/events";

interface NewDashboardDialogProps {
  open: boolean;
  onClose: () => void;
}

/** Create menu → Dashboard: a name, then the new dashboard opens in edit mode (spec §2, §5). */
export default function NewDashboardDialog({ open, onClose }: NewDashboardDialogProps) {
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const trimmed = name.trim();
  const canSave = trimmed !== "" && !saving;

  async function save() {
    if (!canSave) return;
    setSaving(true);
    setError(null);
    try {
      const dashboard = await createDashboard(trimmed);
      recordEvent("create", "dashboard", dashboard.id);
      setName("");
      onClose();
      navigate(`${dashboardPath(dashboard)}?edit`);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setSaving(false);
    }
  }

  function close() {
    if (saving) return;
    setName("");
    setError(null);
    onClose();
  }

  return (
    <Modal
      open={open}
      title="New Dashboard"
      onCancel={close}
      destroyOnHidden
      footer={dialogFooter({
        onCancel: close,
        cancelLabel: "Close",
        onSave: save,
        saveLabel: "Save",
        saving,
        saveDisabled: !canSave,
        saveTestId: "new-dashboard-save",
      })}
    >
      <Input
        autoFocus
        placeholder="Dashboard Name"
        aria-label="Dashboard Name"
        value={name}
        disabled={saving}
        onChange={(event) => setName(event.target.value)}
        onPressEnter={save}
        data-testid="new-dashboard-name"
      />
      {error && <Alert style={{ marginTop: 12 }} type="error" showIcon title={error} />}
    </Modal>
  );
}
