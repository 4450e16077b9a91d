// Query snippets: the list (10 per page, by trigger) and the dialog at /query_snippets/{id|new}.
import { PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Form, Input, Modal, Skeleton, Table, Typography } from "antd";
import type { TableProps } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useNavigate, useParams } from "react-router";
import {
  createQuerySnippet,
  deleteQuerySnippet,
  listQuerySnippets,
  saveQuerySnippet,
  type QuerySnippet,
} from "../../api/querySnippets";
import { notify } from "../../app/notifications";
import { isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { SettingsFrame } from "../settings/SettingsFrame";

export const SNIPPETS_PAGE_SIZE = 10;

export default function QuerySnippetsPage() {
  const { querySnippetId } = useParams();
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { modal } = App.useApp();
  const snippets = useQuery({ queryKey: ["query_snippets"], queryFn: listQuerySnippets });
  const canEdit = (s: QuerySnippet | undefined) =>
    !s || isAdmin(session.user) || s.user?.id === session.user.id;

  const sorted = [...(snippets.data ?? [])].sort((a, b) => a.trigger.localeCompare(b.trigger));
  const open = querySnippetId
    ? querySnippetId === "new"
      ? "new"
      : sorted.find((s) => String(s.id) === querySnippetId)
    : undefined;

  const remove = (snippet: QuerySnippet) =>
    modal.confirm({
      title: "Delete Query Snippet",
      content: "Are you sure you want to delete this query snippet?",
      okText: "Delete",
      okButtonProps: { danger: true },
      onOk: () =>
        deleteQuerySnippet(snippet.id).then(
          () => {
            notify.success("Query snippet deleted successfully.");
            void queryClient.invalidateQueries({ queryKey: ["query_snippets"] });
          },
          () => notify.error("Failed deleting query snippet."),
        ),
    });

  const columns: TableProps<QuerySnippet>["columns"] = [
    {
      title: "Trigger",
      key: "trigger",
      sorter: (a, b) => a.trigger.localeCompare(b.trigger),
      defaultSortOrder: "ascend",
      render: (_, s) => (
        <Typography.Link onClick={() => navigate(`/query_snippets/${s.id}`)}>
          {s.trigger}
        </Typography.Link>
      ),
    },
    { title: "Description", dataIndex: "description", key: "description", responsive: ["md"] },
    {
      title: "Snippet",
      key: "snippet",
      render: (_, s) => (
        <code style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>{s.snippet}</code>
      ),
    },
    { title: "Created By", key: "user", responsive: ["md"], render: (_, s) => s.user?.name ?? "" },
    {
      title: "Created At",
      key: "created_at",
      responsive: ["lg"],
      sorter: (a, b) => (a.created_at ?? "").localeCompare(b.created_at ?? ""),
      render: (_, s) =>
        s.created_at ? dayjs(s.created_at).format(session.client_config.dateTimeFormat) : "",
    },
    {
      key: "delete",
      width: 90,
      render: (_, s) =>
        canEdit(s) && (
          <Button danger size="small" onClick={() => remove(s)}>
            Delete
          </Button>
        ),
    },
  ];

  return (
    <SettingsFrame
      title="Query Snippets"
      actions={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => navigate("/query_snippets/new")}
        >
          New Query Snippet
        </Button>
      }
    >
      <Card>
        {snippets.isError ? (
          <Alert type="error" showIcon title={snippets.error.message} />
        ) : snippets.isPending ? (
          <Skeleton active title={false} paragraph={{ rows: 10 }} />
        ) : sorted.length === 0 ? (
          <div style={{ textAlign: "center", padding: 48 }}>
            <Typography.Paragraph>There are no query snippets yet.</Typography.Paragraph>
            <Button type="primary" onClick={() => navigate("/query_snippets/new")}>
              Click here to add one.
            </Button>
          </div>
        ) : (
          <Table<QuerySnippet>
            rowKey="id"
            columns={columns}
            dataSource={sorted}
            pagination={{ pageSize: SNIPPETS_PAGE_SIZE, showSizeChanger: false }}
            data-testid="snippets-table"
          />
        )}
      </Card>
      {open && (
        <QuerySnippetDialog
          snippet={open === "new" ? undefined : open}
          readOnly={open !== "new" && !canEdit(open)}
          onClose={() => navigate("/query_snippets", { replace: true })}
          onSaved={() => {
            void queryClient.invalidateQueries({ queryKey: ["query_snippets"] });
            navigate("/query_snippets", { replace: true });
          }}
        />
      )}
    </SettingsFrame>
  );
}

interface DialogProps {
  snippet?: QuerySnippet;
  readOnly: boolean;
  onClose: () => void;
  onSaved: () => void;
}

function QuerySnippetDialog({ snippet, readOnly, onClose, onSaved }: DialogProps) {
  const [form] = Form.useForm<{ trigger: string; description: string; snippet: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    // Invalid fields show their own messages; nothing more to do then.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    const body = { ...values, description: values.description ?? "" };
    try {
      if (snippet) await saveQuerySnippet(snippet.id, body);
      else await createQuerySnippet(body);
      notify.success("Saved.");
      onSaved();
    } catch {
      notify.error("Failed saving snippet.");
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={snippet ? (readOnly ? "Query Snippet" : "Edit Query Snippet") : "Create Query Snippet"}
      onCancel={onClose}
      footer={
        readOnly ? (
          <Button onClick={onClose}>Close</Button>
        ) : (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button
              type="primary"
              loading={saving}
              onClick={() => void submit()}
              data-testid="save-snippet"
            >
              {snippet ? "Save" : "Create"}
            </Button>
          </>
        )
      }
      data-testid="snippet-dialog"
    >
      <Form
        form={form}
        layout="vertical"
        // Read-only fields stay in the text colour: disabled inputs' pale grey is hard to read.
        requiredMark={!readOnly}
        initialValues={{
          trigger: snippet?.trigger ?? "",
          description: snippet?.description ?? "",
          snippet: snippet?.snippet ?? "",
        }}
      >
        <Form.Item
          name="trigger"
          label="Trigger"
          rules={[{ required: true, whitespace: true, message: "This field is required." }]}
        >
          <Input aria-label="Trigger" autoFocus={!readOnly} readOnly={readOnly} />
        </Form.Item>
        <Form.Item name="description" label="Description">
          <Input aria-label="Description" readOnly={readOnly} />
        </Form.Item>
        <Form.Item
          name="snippet"
          label="Snippet"
          rules={[{ required: true, whitespace: true, message: "This field is required." }]}
        >
          <Input.TextArea
            aria-label="Snippet"
            rows={6}
            readOnly={readOnly}
            style={{ fontFamily: "monospace" }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
