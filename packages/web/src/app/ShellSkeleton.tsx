import { Card, Layout, Skeleton } from "antd";
import { SightlineMark } from "../components/SightlineMark";
import styles from "./layout.module.css";

/** What shows while the session loads: the frame of the page, never a blank page or a spinner. */
export function ShellSkeleton() {
  return (
    <Layout className={styles.shell} aria-busy="true">
      <Layout.Header className={styles.header}>
        <span className={styles.brand}>
          <SightlineMark />
          <span className={styles.brandName}>Sightline</span>
        </span>
      </Layout.Header>
      <Layout.Content className={styles.content}>
        <Card>
          <Skeleton active title paragraph={{ rows: 6 }} />
        </Card>
      </Layout.Content>
    </Layout>
  );
}
