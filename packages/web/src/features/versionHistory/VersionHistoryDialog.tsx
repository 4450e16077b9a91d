// The version history dialog of queries and dashboards (issue 29): the list of versions at left,
// the chosen version at right with what changed in words, the kind's own comparison (the text
// diff, the layout preview) and its actions (restore, open as new). Any version can be compared
// with any other on the list; by default with the one saved before it. On a phone the dialog
// fills the screen and shows the list, then the chosen version with a way back.
import { ArrowLeftOutlined } from "@ant-design/icons";
import { Button, Empty, Grid, Modal, Select, Skeleton, Tag, Typography } from "antd";
import { useState, type ReactNode } from "react";
import type { VersionEntry, VersionedKind, VersionedObject } from "../../api/versions";
import { TimeAgo } from "../admin/TimeAgo";
import type { ChangeItem } from "./changeWords";
import { useVersionObject, useVersionPages } from "./useVersions";
import { VersionList, type Describe } from "./VersionList";
import styles from "./VersionHistory.module.css";

export interface ComparedVersion<K extends VersionedKind> {
  version: number;
  object: VersionedObject[K];
  label: string;
}

export interface Comparison<K extends VersionedKind> {
  /** The older of the two (null: the newer is the first version of all). */
  older: ComparedVersion<K> | null;
  newer: ComparedVersion<K>;
  changes: ChangeItem[];
  phone: boolean;
}

export interface VersionActionsArgs<K extends VersionedKind> {
  entry: VersionEntry;
  object: VersionedObject[K] | undefined;
  isCurrent: boolean;
  /** The newest version listed: what a restore expects to replace. */
  latestVersion: number;
}

interface VersionHistoryDialogProps<K extends VersionedKind> {
  kind: K;
  objectId: number;
  /** The page's version of the object; the newest listed counts when it is newer. */
  currentVersion: number;
  describe: Describe<K>;
  renderComparison: (comparison: Comparison<K>) => ReactNode;
  renderActions: (args: VersionActionsArgs<K>) => ReactNode;
  onClose: () => void;
}

export function VersionHistoryDialog<K extends VersionedKind>(props: VersionHistoryDialogProps<K>) {
  const { kind, objectId } = props;
  const phone = Grid.useBreakpoint().md === false;
  const pages = useVersionPages(kind, objectId);
  const [chosen, setChosen] = useState<number | null>(null);
  // On a phone the list shows until a version is chosen.
  const [showingDetail, setShowingDetail] = useState(false);
  const newest = pages.page === 1 ? pages.entries[0]?.version : undefined;
  const latestVersion = Math.max(props.currentVersion, newest ?? 0);
  const selected = chosen ?? newest ?? null;
  const entry = pages.entries.find((e) => e.version === selected) ?? null;

  const list = (
    <VersionList
      kind={kind}
      objectId={objectId}
      pages={pages}
      currentVersion={latestVersion}
      selected={phone && !showingDetail ? null : selected}
      onSelect={(version) => {
        setChosen(version);
        setShowingDetail(true);
      }}
      describe={props.describe}
    />
  );

  const detail = entry ? (
    <VersionDetail
      {...props}
      key={entry.version}
      entry={entry}
      entries={pages.entries}
      previous={pages.previousOf(entry.version)}
      latestVersion={latestVersion}
      phone={phone}
      onBack={phone ? () => setShowingDetail(false) : undefined}
    />
  ) : pages.loading ? (
    <Skeleton active paragraph={{ rows: 8 }} />
  ) : (
    <Empty description="Choose a version" />
  );

  return (
    <Modal
      open
      title="Version History"
      onCancel={props.onClose}
      footer={<Button onClick={props.onClose}>Close</Button>}
      width={phone ? "100vw" : 1160}
      style={phone ? { top: 0, maxWidth: "100vw", margin: 0, paddingBottom: 0 } : { top: 40 }}
      styles={{
        body: phone ? { height: "calc(100dvh - 128px)", overflow: "auto" } : undefined,
        container: phone ? { borderRadius: 0, minHeight: "100dvh" } : undefined,
      }}
      className={phone ? styles.phoneDialog : undefined}
      data-testid="version-history"
    >
      {phone ? (
        <div className={styles.stacked}>{showingDetail ? detail : list}</div>
      ) : (
        <div className={styles.columns}>
          <div className={styles.listPane}>{list}</div>
          <div className={styles.detailPane}>{detail}</div>
        </div>
      )}
    </Modal>
  );
}

interface DetailProps<K extends VersionedKind> extends VersionHistoryDialogProps<K> {
  entry: VersionEntry;
  entries: VersionEntry[];
  previous: VersionEntry | null | undefined;
  latestVersion: number;
  phone: boolean;
  onBack?: () => void;
}

const versionLabel = (version: number) => `Version ${version}`;

function VersionDetail<K extends VersionedKind>(props: DetailProps<K>) {
  const { entry, previous, kind, objectId } = props;
  // What the chosen version is compared with: the one saved before it unless another is picked.
  const [picked, setPicked] = useState<number | null>(null);
  const otherVersion = picked ?? previous?.version ?? null;
  const chosen = useVersionObject(kind, objectId, entry.version);
  const other = useVersionObject(kind, objectId, otherVersion);
  const isCurrent = entry.version === props.latestVersion;

  const olderFirst = otherVersion === null || otherVersion < entry.version;
  const loaded = chosen.data && (otherVersion === null || other.data);
  let comparison: Comparison<K> | null = null;
  if (loaded) {
    const mine: ComparedVersion<K> = {
      version: entry.version,
      object: chosen.data!,
      label: versionLabel(entry.version),
    };
    const theirs: ComparedVersion<K> | null =
      otherVersion === null
        ? null
        : { version: otherVersion, object: other.data!, label: versionLabel(otherVersion) };
    const older = olderFirst ? theirs : mine;
    const newer = olderFirst ? mine : theirs!;
    comparison = {
      older,
      newer,
      changes: props.describe(older?.object ?? null, newer.object),
      phone: props.phone,
    };
  }

  const compareOptions = props.entries
    .filter((e) => e.version !== entry.version)
    .map((e) => ({
      value: e.version,
      label: `${versionLabel(e.version)}${e.version === previous?.version ? " (the one before)" : ""} · ${e.user?.name ?? "Unknown user"}`,
    }));
  if (previous && !compareOptions.some((o) => o.value === previous.version)) {
    compareOptions.push({
      value: previous.version,
      label: `${versionLabel(previous.version)} (the one before)`,
    });
  }

  const failed = chosen.error ?? other.error;
  return (
    <div className={styles.detail} data-testid="version-detail">
      {props.onBack && (
        <Button
          type="link"
          icon={<ArrowLeftOutlined />}
          onClick={props.onBack}
          className={styles.back}
        >
          All versions
        </Button>
      )}
      <div className={styles.detailHeader}>
        <div className={styles.detailTitle}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {versionLabel(entry.version)}
            {isCurrent && (
              <Tag color="blue" bordered={false} style={{ marginLeft: 8 }}>
                Current
              </Tag>
            )}
          </Typography.Title>
          <Typography.Text type="secondary">
            Saved by {entry.user?.name ?? "an unknown user"} <TimeAgo date={entry.created_at} />
          </Typography.Text>
        </div>
        <div className={styles.actions}>
          {props.renderActions({
            entry,
            object: chosen.data,
            isCurrent,
            latestVersion: props.latestVersion,
          })}
        </div>
      </div>
      <div className={styles.compareRow}>
        <Typography.Text type="secondary">Compared with</Typography.Text>
        {compareOptions.length > 0 ? (
          <Select
            size="small"
            aria-label="Compare with version"
            data-testid="compare-with"
            className={styles.compareSelect}
            value={otherVersion ?? undefined}
            placeholder="Nothing: the first version"
            options={compareOptions}
            onChange={(value: number) => setPicked(value)}
            popupMatchSelectWidth={false}
          />
        ) : (
          <Typography.Text>nothing: this is the first version</Typography.Text>
        )}
      </div>
      {failed ? (
        <Typography.Paragraph type="danger">
          This version could not be loaded: {failed.message}
        </Typography.Paragraph>
      ) : !comparison ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <>
          <ChangeList comparison={comparison} />
          {props.renderComparison(comparison)}
        </>
      )}
    </div>
  );
}

function ChangeList<K extends VersionedKind>({ comparison }: { comparison: Comparison<K> }) {
  const { older, newer, changes } = comparison;
  return (
    <section className={styles.changes} aria-label="What changed" data-testid="version-changes">
      <Typography.Text strong>
        {older
          ? `From ${older.label.toLowerCase()} to ${newer.label.toLowerCase()}`
          : "First version"}
      </Typography.Text>
      {changes.length === 0 ? (
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          Nothing changed.
        </Typography.Paragraph>
      ) : (
        <ul>
          {changes.map((c, i) => (
            <li key={i}>{c.detail}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
