// Which alert destinations can carry a report (issue 28). The server refuses the others when a
// subscription is saved (packages/server/src/reports/input.ts, REPORT_DESTINATION_TYPES); this
// list must stay the same as that one: the server does not publish it.
import type { Destination } from "../../api/destinations";

export const REPORT_DESTINATION_TYPES: readonly string[] = [
  "email",
  "slack",
  "mattermost",
  "microsoft_teams_webhook",
  "webhook",
  "discord",
  "hangouts_chat",
];

export function canCarryReport(type: string): boolean {
  return REPORT_DESTINATION_TYPES.includes(type);
}

/**
 * The destinations the picker offers: those that can carry a report, plus any already chosen
 * that cannot (an older subscription's), so it shows by name and can be removed.
 */
export function reportDestinationChoices(
  destinations: readonly Destination[],
  chosen: readonly number[],
): Destination[] {
  return destinations.filter((d) => canCarryReport(d.type) || chosen.includes(d.id));
}
