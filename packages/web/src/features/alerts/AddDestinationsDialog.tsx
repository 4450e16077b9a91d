// 'Add Existing Alert Destinations' (spec 3 §2 Dialogs): a searchable multi-select of the
// destinations not on the alert yet; Save (count) subscribes the alert to each.
import { CheckOutlined } from "@ant-design/icons";
import { Button, Input, Modal } from "antd";
import { useState } from "react";
import type { Destination } from "../../api/destinations";
import { DestinationLogo } from "../destinations/DestinationLogo";
import { ChoiceList } from "./ChoiceList";
import styles from "./alerts.module.css";

interface AddDestinationsDialogProps {
  open: boolean;
  destinations: Destination[];
  onClose: () => void;
  /** Saves the chosen destinations; the dialog stays open (and busy) until it settles. */
  onSave: (ids: number[]) => Promise<void>;
}

export function AddDestinationsDialog(props: AddDestinationsDialogProps) {
  const [search, setSearch] = useState("");
  const [chosen, setChosen] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);
  const needle = search.trim().toLowerCase();
  const shown = props.destinations.filter((d) => !needle || d.name.toLowerCase().includes(needle));

  const toggle = (id: number) =>
    setChosen((ids) => (ids.includes(id) ? ids.filter((i) => i !== id) : [...ids, id]));

  const close = () => {
    setSearch("");
    setChosen([]);
    props.onClose();
  };

  const save = async () => {
    setSaving(true);
    try {
      await props.onSave(chosen);
    } finally {
      setSaving(false);
    }
    close();
  };

  return (
    <Modal
      open={props.open}
      title="Add Existing Alert Destinations"
      width={570}
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close}>
          Cancel
        </Button>,
        <Button
          key="save"
          type="primary"
          disabled={chosen.length === 0}
          loading={saving}
          onClick={() => void save()}
          data-testid="save-destinations"
        >
          Save ({chosen.length})
        </Button>,
      ]}
    >
      <Input.Search
        placeholder="Search destinations..."
        aria-label="Search destinations"
        allowClear
        autoFocus
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ marginBottom: 12 }}
      />
      <ChoiceList<Destination>
        label="Destinations"
        items={shown}
        keyOf={(d) => d.id}
        emptyText={
          props.destinations.length ? "No items match your search." : "No options available."
        }
        selected={(d) => chosen.includes(d.id)}
        testId={(d) => `destination-choice-${d.id}`}
        onPick={(d) => toggle(d.id)}
        render={(d) => (
          <>
            <DestinationLogo type={d.type} size={24} />
            <span className={styles.choiceName}>{d.name}</span>
            {chosen.includes(d.id) && (
              <CheckOutlined style={{ color: "var(--ant-color-primary)" }} />
            )}
          </>
        )}
      />
    </Modal>
  );
}
