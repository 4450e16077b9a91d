import { Button } from "antd";
import type { ReactNode } from "react";

interface DialogFooterProps {
  onCancel: () => void;
  onSave: () => void;
  /** The primary button's text. */
  saveLabel: ReactNode;
  saving: boolean;
  saveDisabled?: boolean;
  saveTestId?: string;
  cancelLabel?: string;
}

/** A dialog's footer: the way out (off while saving) and the primary button (spinning while saving). */
export function dialogFooter(props: DialogFooterProps): ReactNode[] {
  return [
    <Button key="cancel" onClick={props.onCancel} disabled={props.saving}>
      {props.cancelLabel ?? "Cancel"}
    </Button>,
    <Button
      key="save"
      type="primary"
      onClick={props.onSave}
      loading={props.saving}
      disabled={props.saveDisabled}
      data-testid={props.saveTestId}
    >
      {props.saveLabel}
    </Button>,
  ];
}
