import { Alert, Button, Checkbox, Collapse, Form, Input, InputNumber, Select } from "antd";
import type { Rule } from "antd/es/form";
import { useEffect, type ReactNode } from "react";
import { FileField } from "./FileField";
import {
  fieldNamedIn,
  optionsFromValues,
  REQUIRED_MESSAGE,
  validateField,
  type FieldSpec,
} from "./schemaFields";

export interface DynamicFormValues {
  name: string;
  options: Record<string, unknown>;
}

interface DynamicFormProps {
  fields: readonly FieldSpec[];
  /** The object's name; a required Name field comes first. */
  initialName?: string;
  onSubmit: (values: DynamicFormValues) => void;
  submitting?: boolean;
  submitLabel?: string;
  /** An error to show above the buttons (a failed save). */
  error?: string | null;
  /** More buttons after the submit button (Test Connection, Delete...). */
  actions?: ReactNode;
  /** Lets a dialog put the submit button in its own footer. */
  hideSubmit?: boolean;
  formId?: string;
}

function rulesFor(field: FieldSpec): Rule[] {
  return [
    {
      validator: async (_rule, value) => {
        const message = validateField(field, value);
        if (message) throw new Error(message);
      },
    },
  ];
}

/**
 * The input for one field. Form.Item injects `id`, `value` and `onChange` into its child: they
 * must reach the input, or the field is never read and its label points at nothing.
 */
function Control({ field, ...injected }: { field: FieldSpec } & Record<string, unknown>) {
  switch (field.kind) {
    case "password":
      return <Input.Password autoComplete="new-password" {...injected} />;
    case "number":
      return <InputNumber style={{ width: "100%" }} {...injected} />;
    case "select":
      return <Select options={field.options} allowClear={!field.required} {...injected} />;
    case "file":
      return <FileField {...injected} />;
    default:
      return <Input {...injected} />;
  }
}

function FieldItem({ field }: { field: FieldSpec }) {
  return (
    <Form.Item
      name={field.name}
      label={field.kind === "checkbox" ? undefined : field.title}
      required={field.required}
      rules={rulesFor(field)}
      valuePropName={field.kind === "checkbox" ? "checked" : "value"}
    >
      {field.kind === "checkbox" ? <Checkbox>{field.title}</Checkbox> : <Control field={field} />}
    </Form.Item>
  );
}

/**
 * The form of a configuration schema (data sources, alert destinations): a Name field, the
 * schema's fields in order, extra options in a collapsed part. A failed submit scrolls to the
 * first invalid field and sends nothing.
 */
export function DynamicForm(props: DynamicFormProps) {
  const [form] = Form.useForm();
  const main = props.fields.filter((f) => !f.extra);
  const extra = props.fields.filter((f) => f.extra);
  const initialValues: Record<string, unknown> = { name: props.initialName ?? "" };
  for (const field of props.fields) initialValues[field.name] = field.initialValue;

  // A refusal that names a field marks it too, beside the message above the buttons.
  const { error, fields } = props;
  useEffect(() => {
    const named = error ? fieldNamedIn(error, fields) : null;
    if (error && named) form.setFields([{ name: named, errors: [error] }]);
  }, [error, fields, form]);

  return (
    <Form
      form={form}
      id={props.formId}
      layout="vertical"
      initialValues={initialValues}
      scrollToFirstError={{ behavior: "smooth", block: "center" }}
      onFinish={(values: Record<string, unknown>) =>
        props.onSubmit({
          name: String(values.name ?? "").trim(),
          options: optionsFromValues(props.fields, values),
        })
      }
    >
      <Form.Item
        name="name"
        label="Name"
        required
        rules={[{ required: true, whitespace: true, message: REQUIRED_MESSAGE }]}
      >
        <Input />
      </Form.Item>
      {main.map((field) => (
        <FieldItem key={field.name} field={field} />
      ))}
      {extra.length > 0 && (
        <Collapse
          ghost
          size="small"
          items={[
            {
              key: "extra",
              label: "Additional Settings",
              forceRender: true,
              children: extra.map((field) => <FieldItem key={field.name} field={field} />),
            },
          ]}
        />
      )}
      {props.error && (
        <Alert type="error" showIcon title={props.error} style={{ margin: "16px 0" }} />
      )}
      {(!props.hideSubmit || props.actions) && (
        <Form.Item style={{ marginTop: 16, marginBottom: 0 }}>
          <div style={{ display: "flex", flexWrap: "wrap", gap: 8 }}>
            {!props.hideSubmit && (
              <Button type="primary" htmlType="submit" loading={props.submitting}>
                {props.submitLabel ?? "Save"}
              </Button>
            )}
            {props.actions}
          </div>
        </Form.Item>
      )}
    </Form>
  );
}
