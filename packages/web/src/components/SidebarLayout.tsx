// Settings pages with a sidebar (users list, a group's pages): the sidebar on the left of the
// content, stacked above it on phones.
import type { ReactNode } from "react";
import styles from "./SidebarLayout.module.css";

export function SidebarLayout({ sidebar, children }: { sidebar: ReactNode; children: ReactNode }) {
  return (
    <div className={styles.page}>
      <aside className={styles.sidebar}>{sidebar}</aside>
      <div className={styles.main}>{children}</div>
    </div>
  );
}

/** The class of a menu in the sidebar: no divider line, rounded like the cards. */
export const sidebarMenuClass = styles.menu;
