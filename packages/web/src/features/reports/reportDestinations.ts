// The destinations a subscription form offers (issue 28); which types can carry a report is
// one list in @sightline/core, shared with the server's check.
import { canCarryReport } from "@sightline/core";
import type { Destination } from "../../api/destinations";

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
