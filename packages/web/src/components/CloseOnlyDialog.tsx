import { Button, Modal, type ModalProps } from "antd";

type CloseOnlyDialogProps = Omit<ModalProps, "open" | "footer" | "onCancel"> & {
  onClose: () => void;
};

/** An open dialog with nothing to confirm (it shows something, or applies each change at once):
 *  its one button is Close, and Esc or the × close it too. */
export function CloseOnlyDialog({ onClose, ...modal }: CloseOnlyDialogProps) {
  return (
    <Modal open footer={<Button onClick={onClose}>Close</Button>} onCancel={onClose} {...modal} />
  );
}
