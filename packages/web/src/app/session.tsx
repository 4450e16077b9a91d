import { useQuery } from "@tanstack/react-query";
import { createContext, useContext, useEffect, type ReactNode } from "react";
import { isApiError } from "../api/errors";
import { getSession, isAuthenticated, loginUrl } from "../api/session";
import type { AuthenticatedSession } from "../api/types";
import { ErrorScreen } from "./ErrorScreen";
import { ShellSkeleton } from "./ShellSkeleton";
import styles from "./layout.module.css";

const SessionContext = createContext<AuthenticatedSession | null>(null);

export const SESSION_QUERY_KEY = ["session"] as const;

/** The loaded, authenticated session; only available inside `SessionGate`. */
export function useSession(): AuthenticatedSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession() used outside SessionGate");
  return session;
}

/** The session inside `SessionGate`; null on pages opened without one (embeds, public pages). */
export function useOptionalSession(): AuthenticatedSession | null {
  return useContext(SessionContext);
}

/**
 * Loads GET api/session once. Until it is loaded a skeleton of the page shows; an unauthenticated
 * visitor is sent to the login page with the current address as next.
 */
export function SessionGate({ children }: { children: ReactNode }) {
  const { data, error } = useQuery({
    queryKey: SESSION_QUERY_KEY,
    queryFn: getSession,
    staleTime: Infinity,
    retry: false,
  });
  // Logged out, the server answers api/session with a 401 or (as Redash) a 404 "Please login":
  // same as an empty session.
  const loggedOut =
    (data !== undefined && !isAuthenticated(data)) ||
    (isApiError(error) &&
      (error.status === 401 || (error.serverMessage ?? "").includes("Please login")));

  useEffect(() => {
    if (loggedOut) window.location.assign(loginUrl(window.location));
  }, [loggedOut]);

  // A failed refresh of a loaded session keeps the loaded one (the next call tells what is wrong).
  if (error && !loggedOut && !data) {
    return (
      <div className={styles.content}>
        <ErrorScreen error={error} />
      </div>
    );
  }
  if (!data || loggedOut) return <ShellSkeleton />;
  return <SessionContext.Provider value={data}>{children}</SessionContext.Provider>;
}
