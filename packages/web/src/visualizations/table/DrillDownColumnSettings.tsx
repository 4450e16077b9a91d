// A link column's target in the table editor: a URL template (Redash's link column), or a
// dashboard or query opened with the row's values as its parameters (issue 19).
import { Radio } from "antd";
import { useState } from "react";
import { readDrillDownLink } from "@sightline/core";
import type { DrillDownTargetSource } from "../../components/drillDown/drillDownTargets";
import { DrillDownLinkFields } from "../../components/drillDown/DrillDownLinkFields";
import {
  draftFromLink,
  linkFromDraft,
  type DrillDownDraft,
} from "../../components/drillDown/drillDownDraft";
import { Field } from "../components/controls";
import type { ColumnOptions } from "./columns";

type LinkKind = "template" | "target";

export function DrillDownColumnSettings({
  column,
  columnNames,
  targets,
  onChange,
  children,
}: {
  column: ColumnOptions;
  /** Every column of the row, offered for the target's parameters. */
  columnNames: readonly string[];
  /** Where dashboards and queries are found, as the editor's host hands it in; none: URL only. */
  targets: DrillDownTargetSource | undefined;
  onChange: (changes: Partial<ColumnOptions>) => void;
  /** The URL template fields, shown for the template kind. */
  children: React.ReactNode;
}) {
  const stored = readDrillDownLink(column.drillDown);
  const [kind, setKind] = useState<LinkKind>(stored ? "target" : "template");
  const [draft, setDraft] = useState<DrillDownDraft>(() => draftFromLink(stored));
  const change = (next: DrillDownDraft) => {
    setDraft(next);
    // Until a target is chosen the column keeps no link; the URL template applies meanwhile.
    onChange({ drillDown: linkFromDraft(next, undefined) ?? undefined });
  };
  if (!targets) return <>{children}</>;
  return (
    <>
      <Field label="Link to">
        <Radio.Group
          value={kind}
          optionType="button"
          options={[
            { value: "template", label: "URL template" },
            { value: "target", label: "Dashboard or query" },
          ]}
          onChange={(e) => {
            const next = e.target.value as LinkKind;
            setKind(next);
            onChange({
              drillDown:
                next === "target" ? (linkFromDraft(draft, undefined) ?? undefined) : undefined,
            });
          }}
        />
      </Field>
      {kind === "target" ? (
        <DrillDownLinkFields
          draft={draft}
          onChange={change}
          columns={columnNames}
          source="row"
          targets={targets}
        />
      ) : (
        children
      )}
    </>
  );
}
