// Desktop notifications at the end of a run the user started (spec 2 §4).

/** Asks for permission once, on the first run (browsers only ask after a user's action). */
export function requestNotificationPermission(): void {
  if (typeof Notification !== "undefined" && Notification.permission === "default") {
    void Notification.requestPermission();
  }
}

/** A desktop notification when a run ends while the page is in the background. */
export function desktopNotify(name: string, ok: boolean): void {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  if (document.visibilityState === "visible") return;
  new Notification(name, { body: ok ? "Query results are ready." : "Query execution failed." });
}
