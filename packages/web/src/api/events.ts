import { createEventRecorder } from "./eventRecorder";
import { http } from "./http";

/** Reports a usage event (batched, POST api/events). */
export const recordEvent = createEventRecorder({
  send: (events) => http.post("api/events", events),
  screenResolution: () => `${window.screen.width}x${window.screen.height}`,
});
