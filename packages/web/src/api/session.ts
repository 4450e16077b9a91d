import { http } from "./http";
import type { AuthenticatedSession, Session } from "./types";

export function getSession(): Promise<Session> {
  return http.get<Session>("api/session");
}

/** Authenticated when the session's user has an id (spec §3). */
export function isAuthenticated(session: Session): session is AuthenticatedSession {
  const user: unknown = session.user;
  return typeof user === "object" && user !== null && "id" in user && typeof user.id === "number";
}

/** Where an unauthenticated visitor is sent: the login page, coming back here afterwards. */
export function loginUrl(location: { pathname: string; search: string; hash: string }): string {
  const next = `${location.pathname}${location.search}${location.hash}`;
  return `/login?next=${encodeURIComponent(next)}`;
}
