// The Add Widget dialog's parameter mappings (spec 3 §4–5): for each query parameter, a new or an
// existing dashboard parameter, the widget's own parameter, or a static value.
import { Input, Select, Table, Typography } from "antd";
import type { ParameterDefinition } from "@sightline/core";
import { ParameterInput } from "../queries/ParameterInput";
import {
  MAPPING_TITLE_MAX,
  draftError,
  type MappingChoice,
  type MappingDraft,
} from "./dashboardParameters";
import type { DashboardParameter } from "../../lib/parameterMappings";

interface ParameterMappingsEditorProps {
  parameters: readonly ParameterDefinition[];
  existing: readonly DashboardParameter[];
  drafts: Record<string, MappingDraft>;
  queryId: number;
  onChange: (drafts: Record<string, MappingDraft>) => void;
  /** Enter in a title field: the dialog saves, as its OK button would. */
  onSubmit?: () => void;
}

export function ParameterMappingsEditor(props: ParameterMappingsEditorProps) {
  const { existing, drafts } = props;
  const update = (def: ParameterDefinition, changes: Partial<MappingDraft>) =>
    props.onChange({ ...drafts, [def.name]: { ...drafts[def.name], ...changes } });

  const choose = (def: ParameterDefinition, choice: MappingChoice) => {
    const sameType = existing.filter((p) => p.type === def.type);
    // A static value starts from the parameter's current value; the others start empty.
    if (choice === "static") update(def, { choice, value: def.value ?? null });
    else if (choice === "existing")
      update(def, { choice, mapTo: sameType[0]?.name ?? "", value: null });
    else if (choice === "new") update(def, { choice, mapTo: def.name, value: null });
    else update(def, { choice, mapTo: def.name, value: null });
  };

  return (
    <Table<ParameterDefinition>
      size="small"
      rowKey="name"
      pagination={false}
      dataSource={[...props.parameters]}
      data-testid="parameter-mappings"
      columns={[
        {
          key: "title",
          title: "Title",
          render: (_, def) => (
            <Input
              size="small"
              variant="borderless"
              aria-label={`Title of ${def.name}`}
              placeholder={def.title || def.name}
              maxLength={MAPPING_TITLE_MAX}
              value={drafts[def.name]?.title ?? ""}
              onChange={(e) => update(def, { title: e.target.value })}
              onPressEnter={props.onSubmit}
            />
          ),
        },
        {
          key: "keyword",
          title: "Keyword",
          render: (_, def) => <Typography.Text code>{`{{ ${def.name} }}`}</Typography.Text>,
        },
        {
          key: "value",
          title: "Value",
          render: (_, def) => {
            const draft = drafts[def.name];
            if (!draft) return null;
            const sameType = existing.filter((p) => p.type === def.type);
            const error = draftError(draft, existing);
            return (
              <div style={{ display: "flex", flexDirection: "column", gap: 6, minWidth: 220 }}>
                <Select<MappingChoice>
                  size="small"
                  aria-label={`Source of ${def.name}`}
                  value={draft.choice}
                  onChange={(choice) => choose(def, choice)}
                  options={[
                    { value: "new", label: "New dashboard parameter" },
                    {
                      value: "existing",
                      label: "Existing dashboard parameter",
                      disabled: sameType.length === 0,
                    },
                    { value: "widget", label: "Widget parameter" },
                    { value: "static", label: "Static value" },
                  ]}
                />
                {draft.choice === "new" && (
                  <Input
                    size="small"
                    aria-label={`Keyword of ${def.name}`}
                    value={draft.mapTo}
                    status={error ? "error" : undefined}
                    onChange={(e) => update(def, { mapTo: e.target.value })}
                  />
                )}
                {draft.choice === "existing" && (
                  <Select
                    size="small"
                    aria-label={`Dashboard parameter for ${def.name}`}
                    value={draft.mapTo}
                    onChange={(mapTo) => update(def, { mapTo })}
                    options={sameType.map((p) => ({ value: p.name, label: p.title || p.name }))}
                  />
                )}
                {draft.choice === "static" && (
                  <ParameterInput
                    def={def}
                    value={draft.value}
                    parentQueryId={props.queryId}
                    onChange={(value) => update(def, { value })}
                  />
                )}
                {error && <Typography.Text type="danger">{error}</Typography.Text>}
              </div>
            );
          },
        },
      ]}
    />
  );
}
