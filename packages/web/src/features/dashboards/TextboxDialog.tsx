// Add Textbox / Edit Textbox (spec 3 §2): markdown text with a preview 200 ms after typing stops.
import { Input, Modal, Typography } from "antd";
import { dialogFooter } from "../../components/dialogFooter";
import { useJustOpened } from "../../components/useJustOpened";
import { useEffect, useState } from "react";
import { useDialogSave } from "../../components/useDialogSave";
import { markdownHtml } from "./markdown";
import styles from "./DashboardWidget.module.css";

export const PREVIEW_DEBOUNCE_MS = 200;

interface TextboxDialogProps {
  open: boolean;
  /** The text of the widget being edited; undefined when adding one. */
  initialText?: string;
  onSave: (text: string) => Promise<unknown>;
  onClose: () => void;
}

export function TextboxDialog({ open, initialText, onSave, onClose }: TextboxDialogProps) {
  const justOpened = useJustOpened(open);
  const editing = initialText !== undefined;
  const [text, setText] = useState(initialText ?? "");
  const [preview, setPreview] = useState(initialText ?? "");
  const { saving, run } = useDialogSave(onClose);

  useEffect(() => {
    if (open) {
      setText(initialText ?? "");
      setPreview(initialText ?? "");
    }
  }, [open, initialText]);
  useEffect(() => {
    const id = setTimeout(() => setPreview(text), PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [text]);

  const save = () => run(() => onSave(text));

  return (
    <Modal
      open={open}
      maskClosable={!justOpened}
      width={500}
      title={editing ? "Edit Textbox" : "Add Textbox"}
      onCancel={onClose}
      destroyOnHidden
      footer={dialogFooter({
        onCancel: onClose,
        onSave: save,
        saveLabel: editing ? "Save" : "Add to Dashboard",
        saving,
        saveDisabled: editing && text === initialText,
        saveTestId: "textbox-save",
      })}
    >
      <Input.TextArea
        autoFocus
        rows={5}
        value={text}
        placeholder="This is where you write some text"
        aria-label="Text"
        onChange={(e) => setText(e.target.value)}
        data-testid="textbox-text"
      />
      <Typography.Text type="secondary" style={{ display: "block", margin: "8px 0 4px" }}>
        Supports basic{" "}
        <a
          href="https://www.markdownguide.org/cheat-sheet/#basic-syntax"
          target="_blank"
          rel="noopener noreferrer"
        >
          Markdown
        </a>
        .
      </Typography.Text>
      {preview.trim() !== "" && (
        <>
          <Typography.Text strong>Preview:</Typography.Text>
          <div
            className={styles.text}
            style={{ border: "1px solid var(--ant-color-border)", borderRadius: 8, marginTop: 4 }}
            data-testid="textbox-preview"
            dangerouslySetInnerHTML={{ __html: markdownHtml(preview) }}
          />
        </>
      )}
    </Modal>
  );
}
