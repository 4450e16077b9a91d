import { Avatar, type AvatarProps } from "antd";
import { useOptionalSession } from "../app/session";

/**
 * A user's avatar. A self-hosted install makes no third-party image request by default (UI.md):
 * Gravatar addresses, which the API sends as Redash does, are shown only while an admin has
 * turned Gravatar on in the settings; otherwise the initials are drawn here. A picture the user
 * set themselves (any other address) is shown as it is.
 */
export function UserAvatar(props: {
  name?: string;
  imageUrl?: string;
  size?: AvatarProps["size"];
}) {
  const session = useOptionalSession();
  const gravatarOn = session?.client_config.gravatarAvatars === true;
  const src = shownImage(props.imageUrl, gravatarOn);
  return (
    <Avatar size={props.size} src={src} alt="" aria-hidden>
      {initials(props.name)}
    </Avatar>
  );
}

const GRAVATAR_HOST = /^(https?:)?\/\/([a-z0-9-]+\.)*gravatar\.com\//i;

/** The picture to load, or undefined to draw the initials. */
export function shownImage(url: string | undefined, gravatarOn: boolean): string | undefined {
  if (!url) return undefined;
  if (GRAVATAR_HOST.test(url) && !gravatarOn) return undefined;
  return url;
}

/** Up to two letters: the first of the first and of the last word ("Ada King" → "AK"). */
export function initials(name: string | undefined): string {
  const words = (name ?? "").trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  const first = [...words[0]!][0] ?? "";
  const last = words.length > 1 ? ([...words[words.length - 1]!][0] ?? "") : "";
  return (first + last).toUpperCase();
}
