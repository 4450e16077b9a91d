import { SettingOutlined } from "@ant-design/icons";
import { Badge, Button, Tooltip } from "antd";
import type { ParameterDefinition } from "@sightline/core";
import { ParameterInput } from "./ParameterInput";
import { changedNames, type ParameterValues } from "./parameterValues";
import styles from "./QueryPage.module.css";

interface ParametersPanelProps {
  parameters: ParameterDefinition[];
  applied: ParameterValues;
  pending: ParameterValues;
  onPendingChange: (pending: ParameterValues) => void;
  onApply: () => void;
  onEdit?: (def: ParameterDefinition) => void;
  parentQueryId?: number | null;
}

/**
 * A box the value is typed into (text, number): plain Enter there applies, as users expect of a
 * field they just typed in. Dropdowns and date pickers keep Enter for choosing.
 */
function isTypedValueBox(target: EventTarget): boolean {
  return target instanceof HTMLInputElement && !target.closest(".ant-select, .ant-picker");
}

/** The parameter widgets, with Apply Changes while some values wait to be applied. */
export function ParametersPanel(props: ParametersPanelProps) {
  const changed = changedNames(props.parameters, props.applied, props.pending);
  if (props.parameters.length === 0) return null;
  const valueOf = (name: string) =>
    Object.prototype.hasOwnProperty.call(props.pending, name)
      ? props.pending[name]
      : props.applied[name];
  return (
    <div
      className={styles.parameters}
      data-testid="parameters"
      onKeyDown={(e) => {
        if (e.key !== "Enter" || changed.length === 0 || e.nativeEvent.isComposing) return;
        if (e.ctrlKey || e.metaKey || e.altKey || isTypedValueBox(e.target)) {
          e.preventDefault();
          props.onApply();
        }
      }}
    >
      {props.parameters.map((def) => (
        <div key={def.name} className={styles.parameter}>
          <label className={styles.parameterLabel}>
            {def.title || def.name}
            {props.onEdit && (
              <Tooltip title="Edit parameter">
                <SettingOutlined
                  className={styles.parameterEdit}
                  aria-label={`Edit parameter ${def.name}`}
                  onClick={() => props.onEdit!(def)}
                />
              </Tooltip>
            )}
          </label>
          <Badge dot={changed.includes(def.name)}>
            <ParameterInput
              def={def}
              value={valueOf(def.name)}
              parentQueryId={props.parentQueryId}
              onChange={(value) => props.onPendingChange({ ...props.pending, [def.name]: value })}
            />
          </Badge>
        </div>
      ))}
      {changed.length > 0 && (
        <Badge count={changed.length} className={styles.applyButton}>
          <Button type="primary" onClick={props.onApply} data-testid="apply-parameters">
            Apply Changes
          </Button>
        </Badge>
      )}
    </div>
  );
}
