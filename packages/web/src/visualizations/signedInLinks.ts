// Whether the viewer can follow links to the app's signed-in pages (issue 19). Public pages (a
// shared dashboard, an embedded visualization) are seen by visitors who are not signed in: a
// drill-down link would only bring them to the login page, so there it shows as plain text.
import { createContext, useContext } from "react";

/** True unless a public page says otherwise: `<SignedInLinksContext value={false}>`. */
export const SignedInLinksContext = createContext(true);

export function useSignedInLinks(): boolean {
  return useContext(SignedInLinksContext);
}
