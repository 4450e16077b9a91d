// The editor's left panel (spec 2 §2): data source picker, schema browser, description,
// schedule and tags.
import { Input, Select, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import type { DataSource, Query } from "@sightline/core";
import { emptySchemaText, SchemaBrowser } from "./SchemaBrowser";
import type { QuerySchema } from "./useQuerySchema";
import styles from "./QueryPage.module.css";

interface QuerySidePanelProps {
  query: Query;
  choices: DataSource[];
  canEdit: boolean;
  schema: QuerySchema;
  scheduleBlock: ReactNode;
  onChangeDataSource: (id: number) => void;
  onInsert: (text: string) => void;
  onChange: (changes: Partial<Query>) => void;
}

export function QuerySidePanel({
  query,
  choices,
  canEdit,
  schema,
  scheduleBlock,
  onChangeDataSource,
  onInsert,
  onChange,
}: QuerySidePanelProps) {
  return (
    <aside className={styles.panel}>
      <Select
        aria-label="Data Source"
        data-testid="data-source-picker"
        value={query.data_source_id ?? undefined}
        placeholder="Choose data source..."
        disabled={!canEdit}
        onChange={onChangeDataSource}
        options={choices.map((s) => ({ value: s.id, label: s.name }))}
      />
      <SchemaBrowser
        key={query.data_source_id ?? 0}
        schema={schema.tables}
        databases={
          schema.lazy
            ? {
                list: schema.lazy.databases,
                value: schema.lazy.database,
                onChange: schema.lazy.selectDatabase,
              }
            : undefined
        }
        onOpenTable={schema.lazy?.openTable}
        loading={schema.loading}
        error={schema.error}
        refreshing={schema.refreshing}
        onRefresh={schema.refresh}
        onInsert={onInsert}
        emptyText={emptySchemaText(choices.find((s) => s.id === query.data_source_id)?.type)}
      />
      {/* Read-only viewers get the description and tags as text (disabled fields are pale). */}
      {canEdit ? (
        <div className={styles.meta}>
          <Typography.Text type="secondary">Description</Typography.Text>
          <Input.TextArea
            aria-label="Description"
            autoSize={{ minRows: 2, maxRows: 6 }}
            placeholder="Add description"
            value={query.description ?? ""}
            onChange={(e) => onChange({ description: e.target.value })}
          />
        </div>
      ) : (
        query.description && (
          <div className={styles.meta} data-testid="query-description">
            <Typography.Text type="secondary">Description</Typography.Text>
            <Typography.Paragraph className={styles.readOnlyDescription}>
              {query.description}
            </Typography.Paragraph>
          </div>
        )
      )}
      {scheduleBlock}
      {canEdit ? (
        <div className={styles.meta}>
          <Typography.Text type="secondary">Tags</Typography.Text>
          <Select
            mode="tags"
            aria-label="Tags"
            placeholder="Add tags"
            value={query.tags ?? []}
            onChange={(tags: string[]) => onChange({ tags })}
          />
        </div>
      ) : (
        (query.tags ?? []).length > 0 && (
          <div className={styles.meta} data-testid="query-tags">
            <Typography.Text type="secondary">Tags</Typography.Text>
            <div>
              {(query.tags ?? []).map((tag) => (
                <Tag key={tag} color="blue">
                  {tag}
                </Tag>
              ))}
            </div>
          </div>
        )
      )}
    </aside>
  );
}
