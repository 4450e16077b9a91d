import { useState } from "react";

/**
 * A dialog's save: `saving` while the work runs, the dialog closed once it succeeds. A failure
 * leaves the dialog open with what the user entered; whoever did the work has said what went wrong.
 */
export function useDialogSave(onClose: () => void) {
  const [saving, setSaving] = useState(false);
  const run = async (work: () => Promise<unknown>) => {
    setSaving(true);
    try {
      await work();
      onClose();
    } catch {
      // Already reported by the work's caller.
    } finally {
      setSaving(false);
    }
  };
  return { saving, run };
}
