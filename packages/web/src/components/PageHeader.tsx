import { Typography } from "antd";
import type { ReactNode } from "react";
import { usePageTitle } from "./usePageTitle";
import styles from "./PageHeader.module.css";

interface PageHeaderProps {
  title: string;
  /** Badges after the title (Unpublished, Archived...). */
  badges?: ReactNode;
  /** The page's actions, primary action last. */
  actions?: ReactNode;
  /** Sets the browser tab title too (default true). */
  setDocumentTitle?: boolean;
  /** Lets a long title wrap instead of cutting its end (an alert's name ends in its threshold). */
  wrapTitle?: boolean;
}

export function PageHeader({
  title,
  badges,
  actions,
  setDocumentTitle = true,
  wrapTitle = false,
}: PageHeaderProps) {
  usePageTitle(title, setDocumentTitle);
  return (
    <div className={styles.header}>
      <div className={styles.titleRow}>
        <Typography.Title
          level={3}
          className={`${styles.title} ${wrapTitle ? styles.wrappedTitle : ""}`}
        >
          {title}
        </Typography.Title>
        {badges}
      </div>
      {actions && <div className={styles.actions}>{actions}</div>}
    </div>
  );
}
