// Which of the query page's dialogs is open.
import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { openedDialog, type Dialog } from "./QueryDialogs";

/**
 * The open dialog. Saving a new query moves to its address, which mounts a new page: a dialog
 * asked for at that moment (Add Visualization) comes along in the navigation's state, and opens.
 */
export function useOpenDialog(): [Dialog | null, (dialog: Dialog | null) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog | null>(() => openedDialog(location.state));
  useEffect(() => {
    // Taken once: reloading the page must not open the dialog again.
    if (openedDialog(location.state)) {
      const { pathname, search, hash } = location;
      navigate({ pathname, search, hash }, { replace: true, state: null });
    }
  }, [location, navigate]);
  return [dialog, setDialog];
}
