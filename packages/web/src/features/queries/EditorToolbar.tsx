// The buttons under the editor (spec 2 §2): add parameter, format, live autocomplete, auto limit,
// save, cancel and execute.
import {
  FormatPainterOutlined,
  PlayCircleOutlined,
  PlusOutlined,
  SaveOutlined,
  StopOutlined,
} from "@ant-design/icons";
import { Button, Checkbox, Space, Switch, Tooltip } from "antd";
import styles from "./QueryPage.module.css";

interface EditorToolbarProps {
  canEdit: boolean;
  canFormat: boolean;
  autocompleteAvailable: boolean;
  liveAutocomplete: boolean;
  onLiveAutocompleteChange: (on: boolean) => void;
  /** Shown only for sources that support it. */
  autoLimit: { checked: boolean; onChange: (on: boolean) => void } | null;
  saving: boolean;
  dirty: boolean;
  running: boolean;
  /** Whether Execute may be pressed (text to run and the right to run it). */
  canRun: boolean;
  hasSelection: boolean;
  onAddParameter: () => void;
  onFormat: () => void;
  onSave: () => void;
  onCancel: () => void;
  onExecute: () => void;
}

export function EditorToolbar(props: EditorToolbarProps) {
  return (
    <div className={styles.toolbar}>
      <Space wrap size={8}>
        {props.canEdit && (
          <Tooltip title="Add New Parameter (Ctrl/Cmd+P)">
            <Button
              icon={<PlusOutlined />}
              onClick={props.onAddParameter}
              aria-label="Add New Parameter"
            >
              {"{{ }}"}
            </Button>
          </Tooltip>
        )}
        <Tooltip title="Format Query (Ctrl/Cmd+Shift+F)">
          <Button
            icon={<FormatPainterOutlined />}
            onClick={props.onFormat}
            disabled={!props.canFormat || !props.canEdit}
            aria-label="Format Query"
          />
        </Tooltip>
        <Tooltip
          title={
            props.autocompleteAvailable ? "Live Autocomplete" : "Live Autocomplete Not Available"
          }
        >
          <Switch
            size="small"
            aria-label="Live Autocomplete"
            checked={props.liveAutocomplete && props.autocompleteAvailable}
            disabled={!props.autocompleteAvailable}
            onChange={props.onLiveAutocompleteChange}
          />
        </Tooltip>
        {props.autoLimit && (
          <Checkbox
            checked={props.autoLimit.checked}
            onChange={(e) => props.autoLimit!.onChange(e.target.checked)}
          >
            LIMIT 1000
          </Checkbox>
        )}
      </Space>
      <span className={styles.spacer} />
      <Space size={8}>
        {props.canEdit && (
          <Button
            icon={<SaveOutlined />}
            onClick={props.onSave}
            loading={props.saving}
            data-testid="save-query"
          >
            Save{props.dirty ? "*" : ""}
          </Button>
        )}
        {props.running && (
          <Button icon={<StopOutlined />} onClick={props.onCancel}>
            Cancel
          </Button>
        )}
        <Button
          type="primary"
          icon={<PlayCircleOutlined />}
          onClick={props.onExecute}
          // Execution needs text and the right to run (spec 2 §6); the keyboard shortcut on an
          // empty editor still explains why nothing runs.
          disabled={props.running || !props.canRun}
          data-testid="execute-query"
        >
          {props.hasSelection ? "Execute Selected" : "Execute"}
        </Button>
      </Space>
    </div>
  );
}
