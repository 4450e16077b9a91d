import { http } from "./http";
import type { ClientConfig } from "./types";

/** GET /api/config: the public client configuration (organisation formats, feature switches). */
export function getClientConfig(): Promise<{ org_slug: string; client_config: ClientConfig }> {
  return http.get("api/config");
}
