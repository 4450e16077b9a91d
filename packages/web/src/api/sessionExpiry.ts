// Coordinates calls that failed because the session expired: they all wait on one promise that
// is resolved when the user has logged in again (in the login popup).

/** Path of the page the login popup is sent to after login; it tells the opener the session is back. */
export const SESSION_RESTORED_PATH = "/session-restored";
/** The `type` of the message that page posts to `window.opener`. */
export const SESSION_RESTORED_MESSAGE = "sightline:session-restored";

export function loginPopupUrl(): string {
  return `/login?next=${encodeURIComponent(SESSION_RESTORED_PATH)}`;
}

export interface LoginWaiter {
  /** Resolves once the session has been restored; the first caller marks the session expired. */
  wait(): Promise<void>;
  /** The session is back: every waiting call continues. */
  restored(): void;
  isExpired(): boolean;
  subscribe(listener: () => void): () => void;
}

export function createLoginWaiter(): LoginWaiter {
  let pending: { promise: Promise<void>; resolve: () => void } | null = null;
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((listener) => listener());

  return {
    wait() {
      if (!pending) {
        let resolve!: () => void;
        const promise = new Promise<void>((r) => (resolve = r));
        pending = { promise, resolve };
        emit();
      }
      return pending.promise;
    },
    restored() {
      if (!pending) return;
      const { resolve } = pending;
      pending = null;
      resolve();
      emit();
    },
    isExpired: () => pending !== null,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
