// "Compare with the saved version" (issue 29): after a save refused because someone else saved
// the query meanwhile, the user's query is compared with the one now saved, the text side by
// side and the other fields in words. From here the user overwrites, takes the saved version
// (their text is then lost, so it asks), or goes back to editing.
import { useQuery } from "@tanstack/react-query";
import { App, Button, Grid, Modal, Skeleton, Typography } from "antd";
import type { DataSource, Query } from "@sightline/core";
import { getQuery } from "../../../api/queries";
import { TimeAgo } from "../../admin/TimeAgo";
import { scheduleText } from "../display";
import { queryChanges } from "./queryChanges";
import { QueryTextDiff } from "./QueryTextDiff";

interface SavedVersionCompareProps {
  /** The query as the user has it now, unsaved. */
  mine: Query;
  dataSources: DataSource[];
  onOverwrite: () => void;
  onTakeSaved: (saved: Query) => void;
  onClose: () => void;
}

export function SavedVersionCompare({
  mine,
  dataSources,
  onOverwrite,
  onTakeSaved,
  onClose,
}: SavedVersionCompareProps) {
  const phone = Grid.useBreakpoint().md === false;
  const { modal } = App.useApp();
  const saved = useQuery({
    queryKey: ["query", "saved-for-compare", mine.id],
    queryFn: () => getQuery(mine.id),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const changes = saved.data
    ? queryChanges(saved.data, mine, {
        dataSourceName: (id) => dataSources.find((s) => s.id === id)?.name ?? `#${id ?? "none"}`,
        scheduleWords: scheduleText,
      })
    : [];
  const author = saved.data?.last_modified_by?.name ?? saved.data?.user?.name;

  const takeSaved = (query: Query) =>
    modal.confirm({
      title: "Use the saved version?",
      content: "Your changes in the editor will be lost.",
      okText: "Use the saved version",
      okButtonProps: { danger: true },
      onOk: () => onTakeSaved(query),
    });

  return (
    <Modal
      open
      title="Your changes and the saved version"
      onCancel={onClose}
      width={phone ? "100vw" : 1100}
      style={phone ? { top: 0, maxWidth: "100vw", margin: 0, paddingBottom: 0 } : { top: 40 }}
      styles={{ body: { maxHeight: phone ? "calc(100dvh - 160px)" : "70vh", overflow: "auto" } }}
      data-testid="saved-version-compare"
      footer={
        <>
          <Button onClick={onClose}>Keep editing</Button>
          <Button disabled={!saved.data} onClick={() => saved.data && takeSaved(saved.data)}>
            Use the saved version
          </Button>
          <Button danger type="primary" onClick={onOverwrite}>
            Overwrite with mine
          </Button>
        </>
      }
    >
      {saved.error ? (
        <Typography.Paragraph type="danger">
          The saved version could not be loaded: {saved.error.message}
        </Typography.Paragraph>
      ) : !saved.data ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <div style={{ display: "flex", flexDirection: "column", gap: 12 }}>
          <Typography.Text type="secondary">
            Saved {author ? `by ${author} ` : ""}
            <TimeAgo date={saved.data.updated_at} /> (version {saved.data.version}).{" "}
            {changes.length > 0
              ? "What differs in yours:"
              : "Your version is the same as the saved one."}
          </Typography.Text>
          {changes.length > 0 && (
            <ul style={{ margin: 0, paddingLeft: 20 }} data-testid="conflict-changes">
              {changes.map((c, i) => (
                <li key={i}>{c.detail}</li>
              ))}
            </ul>
          )}
          <QueryTextDiff
            before={saved.data.query}
            after={mine.query}
            beforeLabel="Saved version"
            afterLabel="Your text"
            unified={phone}
          />
        </div>
      )}
    </Modal>
  );
}
