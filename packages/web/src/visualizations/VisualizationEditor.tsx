// The visualization editor body: type and name, the type's option tabs, and a live preview with
// its own filter bar. Edits are deep-merged into the options, so unknown keys survive a re-save.
import { Col, Input, Row, Select, Spin, Typography } from "antd";
import { Suspense, useMemo } from "react";
import { VisualizationErrorBoundary } from "./components/ErrorBoundary";
import { DEFINITIONS, findDefinition } from "./definitions";
import { asObject, mergeOptions } from "./lib/merge";
import { normalizeData } from "./lib/normalize";
import { VisualizationRenderer } from "./VisualizationRenderer";
import {
  resolveFormats,
  type EditorProps,
  type Options,
  type QueryResultData,
  type VisualizationFormats,
  type VisualizationSpec,
} from "./types";

export interface VisualizationEditorProps {
  visualization: VisualizationSpec;
  data: QueryResultData;
  onChange: (visualization: VisualizationSpec) => void;
  formats?: Partial<VisualizationFormats>;
  /** Where link columns find their targets (see EditorProps). */
  drillDownTargets?: EditorProps["drillDownTargets"];
}

/** Options as the editor saves them: defaults filled in, runtime-only keys dropped. */
export function optionsForSave(
  visualization: VisualizationSpec,
  data: QueryResultData,
  formats?: Partial<VisualizationFormats>,
): Options {
  const definition = findDefinition(visualization.type);
  const stored = asObject(visualization.options);
  if (!definition) return stored;
  return definition.getOptions(stored, normalizeData(data), resolveFormats(formats));
}

export function VisualizationEditor({
  visualization,
  data: rawData,
  onChange,
  formats: partialFormats,
  drillDownTargets,
}: VisualizationEditorProps) {
  const formats = useMemo(() => resolveFormats(partialFormats), [partialFormats]);
  const data = useMemo(() => normalizeData(rawData), [rawData]);
  const definition = findDefinition(visualization.type);
  const options = asObject(visualization.options);
  const isNew = visualization.id === undefined;

  const changeType = (type: string) => {
    const next = findDefinition(type);
    if (!next) return;
    // A default name ("Chart", or numbered: "Chart 2") follows the type; a chosen one stays.
    const base = visualization.name.replace(/ \d+$/, "");
    const renamed = !visualization.name || DEFINITIONS.some((d) => d.defaultName === base);
    onChange({
      ...visualization,
      type,
      name: renamed ? next.defaultName : visualization.name,
      options: next.defaultOptions(),
    });
  };

  const types = DEFINITIONS.filter((d) => !d.isDeprecated || d.type === visualization.type);
  const Editor = definition?.Editor;
  return (
    <Row gutter={24} style={{ height: "100%" }}>
      <Col xs={24} md={10} style={{ maxHeight: "100%", overflowY: "auto" }}>
        <div style={{ marginBottom: 12 }}>
          <div style={{ fontWeight: 500, marginBottom: 4 }}>Visualization Type</div>
          <Select
            style={{ width: "100%" }}
            value={visualization.type}
            disabled={!isNew}
            options={types.map((d) => ({ value: d.type, label: d.name }))}
            onChange={changeType}
            data-testid="visualization-type"
          />
        </div>
        <div style={{ marginBottom: 12 }}>
          <div style={{ fontWeight: 500, marginBottom: 4 }}>Visualization Name</div>
          <Input
            value={visualization.name}
            onChange={(e) => onChange({ ...visualization, name: e.target.value })}
            data-testid="visualization-name"
          />
        </div>
        {Editor ? (
          <VisualizationErrorBoundary resetKey={visualization.type}>
            <Suspense fallback={<Spin />}>
              <Editor
                options={options}
                data={data}
                formats={formats}
                drillDownTargets={drillDownTargets}
                onOptionsChange={(changes) =>
                  onChange({ ...visualization, options: mergeOptions(options, changes) })
                }
                onReplaceOptions={(next) => onChange({ ...visualization, options: next })}
              />
            </Suspense>
          </VisualizationErrorBoundary>
        ) : (
          <Typography.Text type="warning">This visualization type has no editor.</Typography.Text>
        )}
      </Col>
      <Col xs={24} md={14} style={{ minHeight: 400 }}>
        <VisualizationRenderer
          visualization={visualization}
          data={rawData}
          formats={partialFormats}
          onOptionsChange={(next) => onChange({ ...visualization, options: next })}
        />
      </Col>
    </Row>
  );
}
