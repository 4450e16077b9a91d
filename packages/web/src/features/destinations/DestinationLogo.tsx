import {
  AlertOutlined,
  ApiOutlined,
  BellOutlined,
  CommentOutlined,
  GoogleOutlined,
  MailOutlined,
  MessageOutlined,
  NotificationOutlined,
  SlackOutlined,
} from "@ant-design/icons";
import type { ComponentType } from "react";
import styles from "./destinations.module.css";

/** One icon per destination type (@ant-design/icons only, UI.md); a bell for unknown types. */
const ICONS: Record<string, ComponentType> = {
  email: MailOutlined,
  slack: SlackOutlined,
  webhook: ApiOutlined,
  mattermost: MessageOutlined,
  chatwork: CommentOutlined,
  hangouts_chat: GoogleOutlined,
  pagerduty: AlertOutlined,
  hipchat: NotificationOutlined,
};

export function DestinationLogo({ type, size = 32 }: { type: string; size?: number }) {
  const Icon = ICONS[type] ?? BellOutlined;
  return (
    <span
      className={styles.logo}
      style={{ width: size, height: size, fontSize: Math.round(size * 0.55) }}
      data-testid={`destination-logo-${type}`}
      aria-hidden
    >
      <Icon />
    </span>
  );
}
