import { DeleteOutlined, InboxOutlined, SwapOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { prettySize } from "@sightline/core";
import {
  Alert,
  Button,
  Card,
  List,
  Popconfirm,
  Progress,
  Skeleton,
  Typography,
  Upload,
} from "antd";
import dayjs from "dayjs";
import { useRef, useState } from "react";
import {
  deleteDataSourceFile,
  listDataSourceFiles,
  type UploadedFile,
  type UploadedFiles,
} from "../../api/dataSources";
import { isApiError } from "../../api/errors";
import { uploadDataSourceFile } from "../../api/fileUploads";
import { notify } from "../../app/notifications";
import { useSession } from "../../app/session";
import {
  refusalBeforeUpload,
  refusalToReplace,
  sizeLimitText,
  uploadErrorMessage,
  type UploadState,
} from "./fileUploadState";
import styles from "./dataSources.module.css";

let uploadCount = 0;

/** The Files section of an "Uploaded files" data source: drop area, uploads, the file list. */
export function DataSourceFiles({ id }: { id: number }) {
  const queryClient = useQueryClient();
  const listing = useQuery({
    queryKey: ["dataSourceFiles", id],
    queryFn: () => listDataSourceFiles(id),
    retry: false,
    // Back online after a failed re-read: read the list again rather than keep the warning.
    refetchOnReconnect: "always",
  });
  const [uploads, setUploads] = useState<UploadState[]>([]);

  const update = (key: string, change: Partial<UploadState>) =>
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

  /**
   * Sends `file` (under `name`), showing its progress; the list is read again at the end. Names
   * are NFC, as the server stores them (macOS writes accents decomposed), so one file's uploads
   * share a row.
   */
  async function send(file: File, limits: UploadedFiles, name = file.name.normalize("NFC")) {
    uploadCount += 1;
    const key = `u${uploadCount}`;
    const refusal = refusalBeforeUpload({ name, size: file.size }, limits);
    setUploads((list) => [
      {
        key,
        name,
        percent: 0,
        status: refusal ? "error" : "uploading",
        error: refusal ?? undefined,
      },
      ...list.filter((u) => u.status === "uploading" || u.name !== name),
    ]);
    if (refusal) return;
    const named = name === file.name ? file : new File([file], name, { type: file.type });
    try {
      const answer = await uploadDataSourceFile(id, named, (percent) => update(key, { percent }));
      update(key, { status: "done", percent: 100 });
      notify.success(answer.replaced ? `Replaced ${name}.` : `Uploaded ${name}.`);
    } catch (error) {
      update(key, { status: "error", error: uploadErrorMessage(error) });
    } finally {
      void queryClient.invalidateQueries({ queryKey: ["dataSourceFiles", id] });
      void queryClient.invalidateQueries({ queryKey: ["schema", id] });
    }
  }

  /** Names being deleted: a second press (double click) while one is under way does nothing. */
  const deleting = useRef(new Set<string>());

  async function remove(name: string) {
    if (deleting.current.has(name)) return;
    deleting.current.add(name);
    try {
      await deleteDataSourceFile(id, name);
      notify.success(`Deleted ${name}.`);
      // An upload of the same name started meanwhile keeps its progress.
      setUploads((list) => list.filter((u) => u.name !== name || u.status === "uploading"));
    } catch (error) {
      // Gone already (another tab, an earlier press): what the user asked for is done.
      if (isApiError(error) && error.status === 404) notify.success(`Deleted ${name}.`);
      else notify.error(uploadErrorMessage(error));
    } finally {
      deleting.current.delete(name);
      void queryClient.invalidateQueries({ queryKey: ["dataSourceFiles", id] });
      void queryClient.invalidateQueries({ queryKey: ["schema", id] });
    }
  }

  let body;
  // A failed re-read (offline a moment) keeps the list and the drop area, with a warning.
  if (listing.isError && !listing.data) {
    body = <Alert type="error" showIcon message={uploadErrorMessage(listing.error)} />;
  } else if (!listing.data) {
    body = <Skeleton active paragraph={{ rows: 3 }} />;
  } else {
    const limits = listing.data;
    body = (
      <>
        <Upload.Dragger
          multiple
          showUploadList={false}
          accept={limits.extensions.join(",")}
          beforeUpload={(file) => {
            void send(file, limits);
            return false;
          }}
          data-testid="file-drop"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">Click or drag files here to upload</p>
          <p className="ant-upload-hint">
            CSV, TSV, JSON, JSON lines, Parquet or XLSX, up to {sizeLimitText(limits.max_bytes)}{" "}
            each. A file with the name of an uploaded one replaces it.
          </p>
        </Upload.Dragger>
        {listing.isError && (
          <Alert
            type="warning"
            showIcon
            data-testid="files-stale"
            message={`The file list could not be read again: ${uploadErrorMessage(listing.error)}`}
            action={
              <Button
                size="small"
                loading={listing.isFetching}
                onClick={() => void listing.refetch()}
              >
                Try again
              </Button>
            }
          />
        )}
        <UploadProgress uploads={uploads} />
        <FileList
          files={limits.files}
          onReplace={(row, file) => {
            const refusal = refusalToReplace(file.name, row.name);
            if (refusal) notify.error(refusal);
            else void send(file, limits, row.name);
          }}
          onDelete={remove}
        />
      </>
    );
  }

  return (
    <Card className={styles.files} title="Files" data-testid="data-source-files">
      <Typography.Paragraph type="secondary">
        Query the files with SQL (DuckDB): each file is a table named after it, e.g.{" "}
        <Typography.Text code>SELECT * FROM sales</Typography.Text> for sales.csv, or by its name:{" "}
        <Typography.Text code>read_csv(&apos;sales.csv&apos;)</Typography.Text>.
      </Typography.Paragraph>
      {body}
    </Card>
  );
}

function UploadProgress({ uploads }: { uploads: UploadState[] }) {
  if (uploads.length === 0) return null;
  return (
    <ul className={styles.uploads} aria-label="Uploads">
      {uploads.map((u) => (
        <li key={u.key} data-testid="upload-progress">
          <span className={styles.uploadName}>{u.name}</span>
          {/* A file refused before sending has no progress to show, only why. */}
          {(u.status !== "error" || u.percent > 0) && (
            <Progress
              percent={u.percent}
              size="small"
              status={
                u.status === "error" ? "exception" : u.status === "done" ? "success" : "active"
              }
            />
          )}
          {u.error && (
            <Typography.Text type="danger" className={styles.uploadError}>
              {u.error}
            </Typography.Text>
          )}
        </li>
      ))}
    </ul>
  );
}

interface FileListProps {
  files: (UploadedFile & { table: string })[];
  onReplace: (row: UploadedFile, file: File) => void;
  /** Settles once the file is deleted (or could not be): the confirmation waits for it. */
  onDelete: (name: string) => Promise<void>;
}

function FileList({ files, onReplace, onDelete }: FileListProps) {
  const session = useSession();
  const format = session.client_config?.dateTimeFormat ?? "DD/MM/YY HH:mm";
  const picker = useRef<HTMLInputElement>(null);
  const [replacing, setReplacing] = useState<UploadedFile | null>(null);
  return (
    <>
      <input
        ref={picker}
        type="file"
        hidden
        data-testid="replace-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file && replacing) onReplace(replacing, file);
        }}
      />
      <List
        className={styles.fileList}
        dataSource={files}
        locale={{
          emptyText: (
            <span data-testid="files-empty">
              No files uploaded yet. Drop a file in the area above, or click it to choose one; each
              file becomes a table you can query.
            </span>
          ),
        }}
        renderItem={(file) => (
          <List.Item
            data-testid="uploaded-file"
            actions={[
              <Button
                key="replace"
                size="small"
                icon={<SwapOutlined />}
                onClick={() => {
                  setReplacing(file);
                  picker.current?.click();
                }}
              >
                Replace
              </Button>,
              <Popconfirm
                key="delete"
                title={`Delete ${file.name}?`}
                description="Queries that read it will fail."
                okText="Delete"
                okButtonProps={{ danger: true }}
                onConfirm={() => onDelete(file.name)}
              >
                <Button size="small" danger icon={<DeleteOutlined />}>
                  Delete
                </Button>
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta
              title={<span className={styles.fileName}>{file.name}</span>}
              description={
                <span className={styles.fileFacts}>
                  <span>{prettySize(file.size, 1)}</span>
                  <span>{dayjs(file.modified).format(format)}</span>
                  <span>
                    table <Typography.Text code>{file.table}</Typography.Text>
                  </span>
                </span>
              }
            />
          </List.Item>
        )}
      />
    </>
  );
}
