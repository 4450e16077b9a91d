import { Button, Input, Modal, Result, Spin, Steps } from "antd";
import { useMemo, useState, type ReactNode } from "react";
import type { ConfigurationSchema } from "@sightline/core";
import { notify } from "../../app/notifications";
import { DynamicForm, type DynamicFormValues } from "./DynamicForm";
import { fieldsFromSchema } from "./schemaFields";
import { TypeHeading } from "./TypeHeading";
import styles from "./dynamicForm.module.css";

export interface CreatableType {
  type: string;
  name: string;
  deprecated?: boolean;
  configuration_schema: ConfigurationSchema;
}

interface CreateFromTypeDialogProps<T> {
  /** "Create a New Data Source", "Create a New Alert Destination". */
  title: string;
  types: readonly CreatableType[];
  logo: (type: string) => ReactNode;
  /** Saves the new object; a rejection's message (if any) is shown on the Configuration step. */
  create: (type: CreatableType, values: DynamicFormValues) => Promise<T>;
  onCreated: (created: T) => void;
  onCancel: () => void;
  /** A help link for the chosen type (setup instructions), if there is one. */
  helpLink?: (type: string) => string | undefined;
}

const STEP = { typeSelection: 0, configuration: 1, done: 2 } as const;
export const FAILED_SAVING = "Failed saving.";
const FORM_ID = "create-from-type-form";

function messageOf(error: unknown): string {
  const message =
    error && typeof error === "object" && "serverMessage" in error ? error.serverMessage : null;
  return typeof message === "string" && message ? message : FAILED_SAVING;
}

/** The create dialog of data sources and destinations: Type Selection → Configuration → Done. */
export function CreateFromTypeDialog<T>(props: CreateFromTypeDialogProps<T>) {
  const [step, setStep] = useState<number>(STEP.typeSelection);
  const [search, setSearch] = useState("");
  const [selected, setSelected] = useState<CreatableType | null>(null);
  const [error, setError] = useState<string | null>(null);

  const visible = useMemo(() => {
    const term = search.trim().toLowerCase();
    return props.types.filter((t) => !t.deprecated && t.name.toLowerCase().includes(term));
  }, [props.types, search]);
  const fields = useMemo(
    () => (selected ? fieldsFromSchema(selected.configuration_schema) : []),
    [selected],
  );

  function backToTypes() {
    setStep(STEP.typeSelection);
    setSearch("");
    setError(null);
  }

  function choose(type: CreatableType) {
    setSelected(type);
    setError(null);
    setStep(STEP.configuration);
  }

  async function submit(values: DynamicFormValues) {
    if (!selected) return;
    setStep(STEP.done);
    setError(null);
    try {
      const created = await props.create(selected, values);
      notify.success("Saved.");
      props.onCreated(created);
    } catch (e) {
      setError(messageOf(e));
      setStep(STEP.configuration);
    }
  }

  const footer =
    step === STEP.configuration
      ? [
          <Button key="previous" onClick={backToTypes}>
            Previous
          </Button>,
          <Button key="create" type="primary" htmlType="submit" form={FORM_ID}>
            Create
          </Button>,
        ]
      : step === STEP.typeSelection
        ? [
            <Button key="cancel" onClick={props.onCancel}>
              Cancel
            </Button>,
          ]
        : null;

  return (
    <Modal
      open
      title={props.title}
      width={700}
      onCancel={props.onCancel}
      footer={footer}
      maskClosable={false}
      destroyOnHidden
    >
      <Steps
        size="small"
        current={step}
        className={styles.steps}
        items={[
          {
            title: (
              <span
                className={step === STEP.configuration ? styles.stepLink : undefined}
                onClick={step === STEP.configuration ? backToTypes : undefined}
              >
                Type Selection
              </span>
            ),
          },
          { title: "Configuration" },
          { title: "Done" },
        ]}
      />
      {step === STEP.typeSelection && (
        <>
          <Input.Search
            placeholder="Search..."
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            autoFocus
            className={styles.search}
            aria-label="Search types"
          />
          <div className={styles.typeGrid} data-testid="type-list">
            {visible.map((t) => (
              <button
                type="button"
                key={t.type}
                className={styles.typeTile}
                onClick={() => choose(t)}
                data-testid={`type-${t.type}`}
              >
                <span className={styles.typeLogo}>{props.logo(t.type)}</span>
                <span>{t.name}</span>
              </button>
            ))}
            {visible.length === 0 && (
              <div className={styles.noTypes}>No items match your search.</div>
            )}
          </div>
        </>
      )}
      {/* The form stays mounted while saving, so a refusal returns to what was typed. */}
      {(step === STEP.configuration || step === STEP.done) && selected && (
        <div hidden={step === STEP.done}>
          <TypeHeading
            logo={<span className={styles.typeLogo}>{props.logo(selected.type)}</span>}
            helpLink={props.helpLink?.(selected.type)}
          >
            <strong>{selected.name}</strong>
          </TypeHeading>
          <DynamicForm
            key={selected.type}
            formId={FORM_ID}
            fields={fields}
            onSubmit={(values) => void submit(values)}
            error={error}
            hideSubmit
          />
        </div>
      )}
      {step === STEP.done && (
        <Result icon={<Spin size="large" />} title="Saving..." className={styles.saving} />
      )}
    </Modal>
  );
}
