import type { DestinationType } from "./types";
import { chatwork } from "./chatwork";
import { discord } from "./discord";
import { email } from "./email";
import { hangoutsChat } from "./hangoutsChat";
import { hipchat } from "./hipchat";
import { mattermost } from "./mattermost";
import { microsoftTeams } from "./microsoftTeams";
import { pagerduty } from "./pagerduty";
import { slack } from "./slack";
import { webhook } from "./webhook";

/** Every destination type, in Redash's registration order (Discord and Teams last). */
const TYPES: readonly DestinationType[] = [
  email,
  slack,
  webhook,
  hipchat,
  mattermost,
  chatwork,
  pagerduty,
  hangoutsChat,
  discord,
  microsoftTeams,
];

const BY_TYPE = new Map(TYPES.map((t) => [t.type, t]));

export function listDestinationTypes(): readonly DestinationType[] {
  return TYPES;
}

export function findDestinationType(type: string): DestinationType | null {
  return BY_TYPE.get(type) ?? null;
}

/** Redash's icon for a type it cannot resolve. */
export const FALLBACK_ICON = "fa-bullseye";
