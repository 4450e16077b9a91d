// Show API Key and Embed dialogs of a query.
import { Alert, Button, Checkbox, Input, InputNumber, Space, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import type { ParameterDefinition, Query } from "@sightline/core";
import { regenerateQueryApiKey } from "../../api/queries";
import { notify } from "../../app/notifications";
import { CloseOnlyDialog } from "../../components/CloseOnlyDialog";
import { copyText } from "./copyText";
import { withParameterUrl, type ParameterValues } from "./parameterValues";

export const EMBED_DEFAULT_WIDTH = 720;
export const EMBED_DEFAULT_HEIGHT = 391;
export const UNSAFE_EMBED_MESSAGE =
  "Currently it is not possible to embed queries that contain text parameters.";

function origin(): string {
  return window.location.origin;
}

/** Copy button feedback: 'Copied!' or 'Copy failed' for 2 s after the last click. */
export function CopyButton({ text }: { text: string }) {
  const [label, setLabel] = useState("Copy");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async (button: HTMLElement) => {
    const copied = await copyText(text, button);
    setLabel(copied ? "Copied!" : "Copy failed");
    // A second click starts the 2 s again rather than ending with the first click's.
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setLabel("Copy"), 2000);
  };
  return <Button onClick={(e) => void copy(e.currentTarget)}>{label}</Button>;
}

export function ApiKeyDialog({
  query,
  canEdit,
  onClose,
  onKeyChange,
}: {
  query: Query;
  canEdit: boolean;
  onClose: () => void;
  onKeyChange: (apiKey: string) => void;
}) {
  const [updating, setUpdating] = useState(false);
  const regenerate = () => {
    setUpdating(true);
    regenerateQueryApiKey(query.id)
      .then((q) => onKeyChange(q.api_key))
      .catch(() => notify.error("Failed to update API key"))
      .finally(() => setUpdating(false));
  };
  return (
    <CloseOnlyDialog title="API Key" onClose={onClose} width={600}>
      <Space.Compact style={{ width: "100%" }}>
        <Input
          readOnly
          value={query.api_key}
          data-testid="query-api-key"
          style={{ fontFamily: "monospace" }}
        />
        <CopyButton text={query.api_key} />
        {canEdit && (
          <Button onClick={regenerate} loading={updating}>
            Regenerate
          </Button>
        )}
      </Space.Compact>
      <ExampleApiCalls query={query} />
    </CloseOnlyDialog>
  );
}

/** The query's results by URL with its API key, in both the API Key and the Embed dialog. */
function ExampleApiCalls({ query }: { query: Query }) {
  const url = (format: string) =>
    `${origin()}/api/queries/${query.id}/results.${format}?api_key=${query.api_key}`;
  return (
    <div data-testid="example-api-calls">
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        Example API Calls:
      </Typography.Title>
      <Typography.Text>Results in CSV format:</Typography.Text>
      <Typography.Paragraph code copyable>
        {url("csv")}
      </Typography.Paragraph>
      <Typography.Text>Results in JSON format:</Typography.Text>
      <Typography.Paragraph code copyable>
        {url("json")}
      </Typography.Paragraph>
    </div>
  );
}

export function EmbedDialog({
  query,
  visualizationId,
  parameters,
  values,
  onClose,
}: {
  query: Query;
  visualizationId: number | undefined;
  /** The query's parameters and their applied values: the embed shows the same (p_ keys). */
  parameters: readonly ParameterDefinition[];
  values: ParameterValues;
  onClose: () => void;
}) {
  const [customSize, setCustomSize] = useState(false);
  const [width, setWidth] = useState(EMBED_DEFAULT_WIDTH);
  const [height, setHeight] = useState(EMBED_DEFAULT_HEIGHT);
  const search = withParameterUrl(
    new URLSearchParams({ api_key: query.api_key }),
    parameters,
    values,
  );
  const url = `${origin()}/embed/query/${query.id}/visualization/${visualizationId ?? ""}?${search}`;
  const snippet = `<iframe src="${url}" width="${width}" height="${height}"></iframe>`;
  return (
    <CloseOnlyDialog title="Embed Query" onClose={onClose} width={720} data-testid="embed-dialog">
      {!query.is_safe ? (
        <Alert type="error" showIcon title={UNSAFE_EMBED_MESSAGE} data-testid="embed-unsafe" />
      ) : (
        <>
          <Typography.Text strong>Embed Code</Typography.Text>
          <Space.Compact style={{ width: "100%", marginTop: 4 }}>
            <Input.TextArea
              readOnly
              value={snippet}
              autoSize
              data-testid="embed-code"
              style={{ fontFamily: "monospace" }}
            />
            <CopyButton text={snippet} />
          </Space.Compact>
          <Space style={{ marginTop: 12 }} wrap>
            <Checkbox checked={customSize} onChange={(e) => setCustomSize(e.target.checked)}>
              Set custom size
            </Checkbox>
            <InputNumber
              aria-label="Width"
              addonBefore="Width"
              disabled={!customSize}
              value={width}
              min={1}
              onChange={(v) => setWidth(v ?? EMBED_DEFAULT_WIDTH)}
            />
            <InputNumber
              aria-label="Height"
              addonBefore="Height"
              disabled={!customSize}
              value={height}
              min={1}
              onChange={(v) => setHeight(v ?? EMBED_DEFAULT_HEIGHT)}
            />
          </Space>
          <ExampleApiCalls query={query} />
        </>
      )}
    </CloseOnlyDialog>
  );
}
