// The alert form's query picker (spec 3 §2, §5): recent queries, or a search by name; drafts are
// listed but cannot be picked.
import { CloseOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Alert as Banner, Button, Input, Spin, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import type { Query } from "@sightline/core";
import { getQuery, listQueries, listRecentQueries, type QueryListItem } from "../../api/queries";
import { notify } from "../../app/notifications";
import { SEARCH_DEBOUNCE_MS } from "../../components/listPage/useListAddress";
import { ChoiceList } from "./ChoiceList";
import styles from "./alerts.module.css";

interface QuerySelectorProps {
  value: Pick<Query, "id" | "name"> | null;
  onChange: (query: Query | null) => void;
  disabled?: boolean;
}

function useDebounced(value: string): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setDebounced(value), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [value]);
  return debounced;
}

export function QuerySelector({ value, onChange, disabled }: QuerySelectorProps) {
  const [text, setText] = useState("");
  const [selecting, setSelecting] = useState<number | null>(null);
  const term = useDebounced(text.trim());
  const choices = useQuery({
    queryKey: ["alerts", "query-choices", term],
    queryFn: async (): Promise<QueryListItem[]> =>
      term
        ? (await listQueries("all", { page: 1, page_size: 20, q: term })).results
        : listRecentQueries(),
    enabled: value === null,
  });

  const select = (item: QueryListItem) => {
    setSelecting(item.id);
    getQuery(item.id)
      .then(onChange, () => notify.error("Couldn't select query."))
      .finally(() => setSelecting(null));
  };

  if (value) {
    return (
      <div className={styles.chosenQuery} data-testid="chosen-query">
        <Link to={`/queries/${value.id}`} target="_blank">
          {value.name}
        </Link>
        {!disabled && (
          <Button
            type="text"
            size="small"
            icon={<CloseOutlined />}
            aria-label="Choose another query"
            onClick={() => onChange(null)}
          />
        )}
      </div>
    );
  }

  let list;
  if (choices.isError) {
    list = <Banner type="error" showIcon title="Something went wrong..." />;
  } else if (choices.isPending) {
    list = <Spin size="small" />;
  } else {
    list = (
      <ChoiceList<QueryListItem>
        label="Queries"
        items={choices.data}
        keyOf={(item) => item.id}
        emptyText={term ? "No results matching search term." : "No options available."}
        disabled={(item) => item.is_draft || selecting !== null}
        testId={(item) => `query-choice-${item.id}`}
        onPick={select}
        render={(item) => (
          <>
            <Typography.Text disabled={item.is_draft} className={styles.choiceName}>
              {item.name}
            </Typography.Text>
            {item.is_draft && <Tag>Unpublished</Tag>}
            {selecting === item.id && <Spin size="small" />}
          </>
        )}
      />
    );
  }

  return (
    <div className={styles.querySelector}>
      <Input.Search
        placeholder="Search a query by name"
        aria-label="Search a query by name"
        value={text}
        allowClear
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        data-testid="query-search"
      />
      {list}
    </div>
  );
}
