// The list of a history dialog: each version with its author's avatar and name, when it was
// saved, and a one-line summary of what it changed (worked out from the version and the one
// before it; until both are loaded, from the names of the changed fields).
import { Alert, Pagination, Skeleton, Tag, Typography } from "antd";
import type { VersionEntry, VersionedKind, VersionedObject } from "../../api/versions";
import { TimeAgo } from "../admin/TimeAgo";
import { UserAvatar } from "../../components/UserAvatar";
import { fieldsSummary, summarySentence, type ChangeItem } from "./changeWords";
import { useVersionObject, VERSION_PAGE_SIZE, type VersionPages } from "./useVersions";
import styles from "./VersionHistory.module.css";

export type Describe<K extends VersionedKind> = (
  before: VersionedObject[K] | null,
  after: VersionedObject[K],
) => ChangeItem[];

interface VersionListProps<K extends VersionedKind> {
  kind: K;
  objectId: number;
  pages: VersionPages;
  currentVersion: number;
  selected: number | null;
  onSelect: (version: number) => void;
  describe: Describe<K>;
}

export function VersionList<K extends VersionedKind>(props: VersionListProps<K>) {
  const { pages } = props;
  if (pages.error) {
    return (
      <Alert
        type="error"
        showIcon
        title="Versions could not be loaded."
        description={pages.error.message}
      />
    );
  }
  if (pages.loading) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (pages.entries.length === 0) {
    return <Typography.Paragraph type="secondary">No versions saved yet.</Typography.Paragraph>;
  }
  return (
    <div className={styles.listColumn}>
      <ul className={styles.list} aria-label="Versions" data-testid="version-list">
        {pages.entries.map((entry) => (
          <VersionRow
            key={entry.version}
            {...props}
            entry={entry}
            previous={pages.previousOf(entry.version)}
          />
        ))}
      </ul>
      {pages.count > VERSION_PAGE_SIZE && (
        <Pagination
          simple
          size="small"
          className={styles.pager}
          current={pages.page}
          pageSize={VERSION_PAGE_SIZE}
          total={pages.count}
          onChange={pages.setPage}
        />
      )}
    </div>
  );
}

interface RowProps<K extends VersionedKind> extends VersionListProps<K> {
  entry: VersionEntry;
  previous: VersionEntry | null | undefined;
}

function VersionRow<K extends VersionedKind>(props: RowProps<K>) {
  const { entry, previous } = props;
  const summary = useVersionSummary(props.kind, props.objectId, entry, previous, props.describe);
  const selected = props.selected === entry.version;
  return (
    <li>
      <button
        type="button"
        className={selected ? `${styles.row} ${styles.selectedRow}` : styles.row}
        aria-current={selected ? "true" : undefined}
        onClick={() => props.onSelect(entry.version)}
        data-testid={`version-${entry.version}`}
      >
        <UserAvatar size="small" name={entry.user?.name} imageUrl={entry.user?.profile_image_url} />
        <span className={styles.rowText}>
          <span className={styles.rowTop}>
            <Typography.Text strong ellipsis>
              {entry.user?.name ?? "Unknown user"}
            </Typography.Text>
            <Typography.Text type="secondary" className={styles.rowTime}>
              <TimeAgo date={entry.created_at} />
            </Typography.Text>
          </span>
          <Typography.Text className={styles.summary} data-testid="version-summary">
            {summary}
          </Typography.Text>
          <span className={styles.rowTags}>
            <Tag bordered={false}>Version {entry.version}</Tag>
            {entry.version === props.currentVersion && (
              <Tag color="blue" bordered={false}>
                Current
              </Tag>
            )}
          </span>
        </span>
      </button>
    </li>
  );
}

/** The one-line summary of a listed version. */
export function useVersionSummary<K extends VersionedKind>(
  kind: K,
  id: number,
  entry: VersionEntry,
  previous: VersionEntry | null | undefined,
  describe: Describe<K>,
): string {
  const after = useVersionObject(kind, id, entry.version);
  const before = useVersionObject(kind, id, previous?.version);
  if (after.data && previous === null) return summarySentence(describe(null, after.data));
  if (after.data && before.data) return summarySentence(describe(before.data, after.data));
  return fieldsSummary(entry.changes);
}
