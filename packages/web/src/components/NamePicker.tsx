// Choosing a query or a dashboard by name in a dialog (Add Widget, Add to Dashboard): a search box
// over a short list of matches, and the chosen one's name with a way back to the search.
import type { UseQueryResult } from "@tanstack/react-query";
import { Alert, Button, Input, List, Tag, Typography } from "antd";
import { useEffect, useState, type CSSProperties, type ReactNode } from "react";
import { SEARCH_DEBOUNCE_MS } from "./listPage/useListAddress";

/** What the search box shows, and `q`: its trimmed text once typing has paused. */
export function useNameSearch() {
  const [search, setSearch] = useState("");
  const [q, setQ] = useState("");
  useEffect(() => {
    const id = setTimeout(() => setQ(search.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [search]);
  const clear = () => {
    setSearch("");
    setQ("");
  };
  return { search, setSearch, q, clear };
}

interface PickableItem {
  id: number;
  name: string;
  is_draft?: boolean;
}

interface NameSearchListProps<Item extends PickableItem> {
  /** The search box's placeholder and label. */
  placeholder: string;
  search: ReturnType<typeof useNameSearch>;
  matches: UseQueryResult<{ results: Item[] }>;
  header?: ReactNode;
  emptyText: string;
  onPick: (item: Item) => void;
  searchTestId?: string;
  itemTestId: string;
}

export function NameSearchList<Item extends PickableItem>(props: NameSearchListProps<Item>) {
  const { search, matches } = props;
  return (
    <>
      <Input.Search
        autoFocus
        placeholder={props.placeholder}
        aria-label={props.placeholder}
        value={search.search}
        allowClear
        onChange={(e) => search.setSearch(e.target.value)}
        data-testid={props.searchTestId}
      />
      {matches.isError ? (
        <Alert style={{ marginTop: 12 }} type="error" showIcon title={matches.error.message} />
      ) : (
        <List
          style={{ marginTop: 12, maxHeight: 360, overflow: "auto" }}
          loading={matches.isPending}
          dataSource={matches.data?.results ?? []}
          header={props.header}
          locale={{ emptyText: props.emptyText }}
          renderItem={(item) => (
            <List.Item
              style={{ cursor: "pointer", paddingInline: 8 }}
              onClick={() => props.onPick(item)}
              data-testid={props.itemTestId}
            >
              <Typography.Link>{item.name}</Typography.Link>
              {item.is_draft && <Tag>Unpublished</Tag>}
            </List.Item>
          )}
        />
      )}
    </>
  );
}

/** The chosen item's name and the button that goes back to choosing. */
export function ChosenName(props: {
  name: string;
  changeLabel: string;
  onChange: () => void;
  disabled?: boolean;
  style?: CSSProperties;
  testId?: string;
}) {
  return (
    <div style={{ display: "flex", alignItems: "center", gap: 8, ...props.style }}>
      <Typography.Text strong style={{ flex: 1 }} data-testid={props.testId}>
        {props.name}
      </Typography.Text>
      <Button size="small" onClick={props.onChange} disabled={props.disabled}>
        {props.changeLabel}
      </Button>
    </div>
  );
}
