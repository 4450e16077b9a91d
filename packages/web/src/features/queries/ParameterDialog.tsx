// The add/edit parameter dialog.
import { useQuery } from "@tanstack/react-query";
import { Checkbox, Form, Input, Modal, Select } from "antd";
import { useState } from "react";
import { isDateType, type ParameterDefinition } from "@sightline/core";
import { listQueries } from "../../api/queries";

export const PARAMETER_TYPE_OPTIONS = [
  { value: "text", label: "Text" },
  { value: "number", label: "Number" },
  { value: "enum", label: "Dropdown List" },
  { value: "query", label: "Query Based Dropdown List" },
  { value: "date", label: "Date" },
  { value: "datetime-local", label: "Date and Time" },
  { value: "datetime-with-seconds", label: "Date and Time (with seconds)" },
  { value: "date-range", label: "Date Range" },
  { value: "datetime-range", label: "Date and Time Range" },
  { value: "datetime-range-with-seconds", label: "Date and Time Range (with seconds)" },
];

const QUOTATIONS = [
  { value: "", label: "None (default)" },
  { value: "'", label: "Single Quotation Mark" },
  { value: '"', label: "Double Quotation Mark" },
];

interface ParameterDialogProps {
  /** The parameter to edit; a new one when absent. */
  parameter?: ParameterDefinition;
  existingNames: string[];
  onSave: (def: ParameterDefinition) => void;
  onClose: () => void;
}

/** "order_date" → "Order Date": a new parameter's title until the user writes one (spec 3 §5). */
export function defaultParameterTitle(name: string): string {
  return name.replace(/_/g, " ").replace(/(^|\s)\S/g, (letter) => letter.toUpperCase());
}

/** A parameter name: letters, digits and underscores (the {{ }} template accepts no others). */
const NAME_PATTERN = /^[\w.-]+$/;

export function ParameterDialog({
  parameter,
  existingNames,
  onSave,
  onClose,
}: ParameterDialogProps) {
  const isNew = !parameter;
  const [def, setDef] = useState<ParameterDefinition>(
    parameter ?? { name: "", title: "", type: "text", global: false, value: null },
  );
  const [touched, setTouched] = useState(false);
  // A new parameter's title follows its keyword until the user edits the title.
  const [titleEdited, setTitleEdited] = useState(!isNew);
  const title = titleEdited ? (def.title ?? "") : defaultParameterTitle(def.name);
  const queries = useQuery({
    queryKey: ["queries", "dropdown-sources"],
    queryFn: () => listQueries("all", { page: 1, page_size: 100 }),
    enabled: def.type === "query",
  });

  const nameError = !def.name
    ? "Choose a keyword for this parameter"
    : isNew && existingNames.includes(def.name)
      ? "Parameter with this name already exists"
      : !NAME_PATTERN.test(def.name)
        ? "Keyword can contain only letters, digits and underscores"
        : null;
  // Spec 3 §5: Save is disabled while the title is empty or a query-based list has no query.
  const incomplete =
    title.trim() === "" ||
    (def.type === "query" && (def.queryId === null || def.queryId === undefined));
  const multi = typeof def.multiValuesOptions === "object" && def.multiValuesOptions !== null;
  const update = (changes: Partial<ParameterDefinition>) => setDef({ ...def, ...changes });

  const save = () => {
    setTouched(true);
    if (nameError || incomplete) return;
    onSave({ ...def, title });
  };

  return (
    <Modal
      open
      title={isNew ? "Add Parameter" : def.name}
      okText={isNew ? "Add Parameter" : "OK"}
      onOk={save}
      okButtonProps={{ disabled: incomplete }}
      onCancel={onClose}
      width={600}
      data-testid="parameter-dialog"
    >
      <Form layout="horizontal" labelCol={{ span: 7 }} wrapperCol={{ span: 17 }}>
        {isNew && (
          <Form.Item
            label="Keyword"
            required
            validateStatus={touched && nameError ? "error" : undefined}
            help={touched && nameError ? nameError : undefined}
          >
            <Input
              autoFocus
              aria-label="Keyword"
              value={def.name}
              onChange={(e) => {
                setTouched(true);
                update({ name: e.target.value });
              }}
              onPressEnter={save}
            />
          </Form.Item>
        )}
        <Form.Item label="Title" required>
          <Input
            aria-label="Title"
            value={title}
            onChange={(e) => {
              setTitleEdited(true);
              update({ title: e.target.value });
            }}
            onPressEnter={save}
          />
        </Form.Item>
        <Form.Item label="Type">
          <Select
            aria-label="Type"
            data-testid="parameter-type"
            value={def.type}
            options={PARAMETER_TYPE_OPTIONS}
            onChange={(type: string) => update({ type, value: null })}
          />
        </Form.Item>
        {isDateType(def.type) && (
          <Form.Item label=" " colon={false}>
            <Checkbox
              checked={!!def.useCurrentDateTime}
              onChange={(e) => update({ useCurrentDateTime: e.target.checked })}
            >
              Default to Today/Now if no other value is set
            </Checkbox>
          </Form.Item>
        )}
        {def.type === "enum" && (
          <Form.Item label="Values" help="Dropdown list values (newline delimited)">
            <Input.TextArea
              aria-label="Values"
              rows={3}
              value={
                Array.isArray(def.enumOptions)
                  ? def.enumOptions.join("\n")
                  : (def.enumOptions ?? "")
              }
              onChange={(e) => update({ enumOptions: e.target.value })}
            />
          </Form.Item>
        )}
        {def.type === "query" && (
          <Form.Item label="Query">
            <Select
              showSearch
              aria-label="Query"
              placeholder="Search a query by name"
              optionFilterProp="label"
              loading={queries.isPending}
              value={
                def.queryId === null || def.queryId === undefined ? undefined : Number(def.queryId)
              }
              options={(queries.data?.results ?? []).map((q) => ({ value: q.id, label: q.name }))}
              onChange={(queryId: number) => update({ queryId })}
            />
          </Form.Item>
        )}
        {(def.type === "enum" || def.type === "query") && (
          <>
            <Form.Item label=" " colon={false}>
              <Checkbox
                checked={multi}
                onChange={(e) =>
                  update({
                    multiValuesOptions: e.target.checked
                      ? { prefix: "", suffix: "", separator: "," }
                      : null,
                    value: null,
                  })
                }
              >
                Allow multiple values
              </Checkbox>
            </Form.Item>
            {multi && (
              <>
                <Form.Item label="Quotation">
                  <Select
                    aria-label="Quotation"
                    value={def.multiValuesOptions?.prefix ?? ""}
                    options={QUOTATIONS}
                    onChange={(q: string) =>
                      update({
                        multiValuesOptions: { ...def.multiValuesOptions, prefix: q, suffix: q },
                      })
                    }
                  />
                </Form.Item>
                <Form.Item label="Separator">
                  <Input
                    aria-label="Separator"
                    value={def.multiValuesOptions?.separator ?? ","}
                    onChange={(e) =>
                      update({
                        multiValuesOptions: {
                          ...def.multiValuesOptions,
                          separator: e.target.value,
                        },
                      })
                    }
                  />
                </Form.Item>
              </>
            )}
          </>
        )}
      </Form>
    </Modal>
  );
}
