import { createContext, useContext } from "react";

/** What any page can ask of the frame around it. */
export interface ShellActions {
  openHelp: () => void;
  openNewDashboard: () => void;
}

export const ShellActionsContext = createContext<ShellActions>({
  openHelp: () => undefined,
  openNewDashboard: () => undefined,
});

export function useShellActions(): ShellActions {
  return useContext(ShellActionsContext);
}
