import { Alert, Button, Checkbox, Input, List, Modal, Spin } from "antd";
import { useEffect, useState, type ReactNode } from "react";
import styles from "./groups.module.css";

export interface PickItem {
  id: number;
  label: ReactNode;
  /** Already in the group: shown, but cannot be selected (spec 2 §5). */
  disabled?: boolean;
}

interface AddItemsDialogProps {
  title: string;
  /** Loads the items for a search term (debounced by 200 ms). */
  load: (term: string) => Promise<PickItem[]>;
  /** Adds the chosen ids; a rejection shows 'Failed to save some of selected items.'. */
  save: (ids: number[]) => Promise<void>;
  onClose: (saved: boolean) => void;
}

const SEARCH_DEBOUNCE_MS = 200;

/** A searchable multi-select list with Save (count) and Cancel, width 570. */
export function AddItemsDialog({ title, load, save, onClose }: AddItemsDialogProps) {
  const [term, setTerm] = useState("");
  const [items, setItems] = useState<PickItem[] | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState(false);

  useEffect(() => {
    let cancelled = false;
    const timer = window.setTimeout(() => {
      load(term)
        .then((found) => !cancelled && setItems(found))
        .catch(() => !cancelled && setItems([]));
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [term, load]);

  async function submit() {
    setSaving(true);
    setError(false);
    try {
      await save(selected);
      onClose(true);
    } catch {
      setError(true);
      setSaving(false);
    }
  }

  const toggle = (id: number) =>
    setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));

  return (
    <Modal
      open
      title={title}
      width={570}
      onCancel={() => onClose(false)}
      footer={[
        <Button key="cancel" onClick={() => onClose(false)}>
          Cancel
        </Button>,
        <Button
          key="save"
          type="primary"
          disabled={selected.length === 0}
          loading={saving}
          onClick={() => void submit()}
        >
          Save{selected.length > 0 ? ` (${selected.length})` : ""}
        </Button>,
      ]}
    >
      <Input.Search
        placeholder="Search..."
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        autoFocus
        aria-label="Search"
        style={{ marginBottom: 12 }}
      />
      {error && (
        <Alert
          type="error"
          showIcon
          title="Failed to save some of selected items."
          style={{ marginBottom: 12 }}
        />
      )}
      <div className={styles.pickList}>
        {items === null ? (
          <Spin />
        ) : (
          <List
            size="small"
            dataSource={items}
            locale={{ emptyText: "No items match your search." }}
            renderItem={(item) => (
              <List.Item>
                <Checkbox
                  checked={item.disabled || selected.includes(item.id)}
                  disabled={item.disabled}
                  onChange={() => toggle(item.id)}
                  data-testid={`pick-${item.id}`}
                >
                  {item.label}
                </Checkbox>
              </List.Item>
            )}
          />
        )}
      </div>
    </Modal>
  );
}
