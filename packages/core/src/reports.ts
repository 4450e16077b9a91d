/**
 * Alert destination types a scheduled report can be sent to: they carry a message with a link,
 * values or an image. The server refuses the others when a subscription is saved; the web app's
 * picker offers only these.
 */
export const REPORT_DESTINATION_TYPES = [
  "email",
  "slack",
  "mattermost",
  "microsoft_teams_webhook",
  "webhook",
  "discord",
  "hangouts_chat",
] as const;

export function canCarryReport(type: string): boolean {
  return (REPORT_DESTINATION_TYPES as readonly string[]).includes(type);
}
