// A bordered, scrolling list of choices (the query selector and the destinations dialog).
import { Typography } from "antd";
import type { ReactNode } from "react";
import styles from "./alerts.module.css";

interface ChoiceListProps<T> {
  items: T[];
  keyOf: (item: T) => number;
  render: (item: T) => ReactNode;
  onPick: (item: T) => void;
  emptyText: string;
  disabled?: (item: T) => boolean;
  selected?: (item: T) => boolean;
  testId?: (item: T) => string;
  label: string;
}

export function ChoiceList<T>(props: ChoiceListProps<T>) {
  if (props.items.length === 0) {
    return (
      <div className={styles.choices}>
        <Typography.Text type="secondary" className={styles.choicesEmpty}>
          {props.emptyText}
        </Typography.Text>
      </div>
    );
  }
  return (
    <div role="listbox" aria-label={props.label} className={styles.choices}>
      {props.items.map((item) => {
        const disabled = props.disabled?.(item) ?? false;
        const pick = () => !disabled && props.onPick(item);
        return (
          <div
            key={props.keyOf(item)}
            role="option"
            tabIndex={disabled ? -1 : 0}
            aria-disabled={disabled}
            aria-selected={props.selected?.(item) ?? false}
            data-testid={props.testId?.(item)}
            className={disabled ? styles.choiceDisabled : styles.choice}
            onClick={pick}
            onKeyDown={(e) => (e.key === "Enter" || e.key === " ") && pick()}
          >
            {props.render(item)}
          </div>
        );
      })}
    </div>
  );
}
