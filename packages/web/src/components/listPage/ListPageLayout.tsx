// The list pages' frame (UI.md, List pages): a sidebar with search, list links and tag filter,
// and the list in a card on the right. On phones the sidebar is one compact row above the list
// (search, a list picker, a Tags button that opens the tags), so the list starts on the first
// screen.
import { TagsOutlined } from "@ant-design/icons";
import { Button, Grid, Input, Menu, Select, Tag, Typography } from "antd";
import { useState, type ReactNode } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import type { TagCount } from "../../api/lists";
import type { ListAddress } from "./useListAddress";
import styles from "./ListPage.module.css";

export interface ListLink {
  path: string;
  label: string;
}

/** The list the address names (a trailing slash allowed), else the first. */
export function useCurrentList<L extends ListLink>(lists: L[]): L {
  const path = useLocation().pathname.replace(/\/+$/, "");
  return lists.find((l) => l.path === path) ?? lists[0];
}

interface ListPageLayoutProps {
  searchPlaceholder: string;
  links: ListLink[];
  currentPath: string;
  address: ListAddress;
  tags: TagCount[];
  children: ReactNode;
}

export function ListPageLayout(props: ListPageLayoutProps) {
  const { address, tags } = props;
  const { q, update } = address;
  const phone = Grid.useBreakpoint().md === false;
  const navigate = useNavigate();
  const [tagsOpen, setTagsOpen] = useState(false);
  const listSearch = q ? `?q=${encodeURIComponent(q)}` : "";
  return (
    <div className={styles.layout}>
      <aside className={styles.sidebar}>
        <Input.Search
          placeholder={props.searchPlaceholder}
          aria-label={props.searchPlaceholder}
          value={address.search}
          allowClear
          onChange={(e) => address.setSearch(e.target.value)}
          onSearch={(value) => address.submitSearch(value)}
        />
        {phone ? (
          <div className={styles.phoneBar}>
            <Select
              aria-label="List"
              className={styles.listPicker}
              value={props.currentPath}
              options={props.links.map((l) => ({ value: l.path, label: l.label }))}
              onChange={(path: string) => void navigate({ pathname: path, search: listSearch })}
            />
            {tags.length > 0 && (
              <Button
                icon={<TagsOutlined />}
                aria-expanded={tagsOpen}
                onClick={() => setTagsOpen((open) => !open)}
                data-testid="tags-toggle"
              >
                {address.tags.length > 0 ? `Tags (${address.tags.length})` : "Tags"}
              </Button>
            )}
          </div>
        ) : (
          <Menu
            mode="vertical"
            selectedKeys={[props.currentPath]}
            style={{ borderInlineEnd: "none", borderRadius: 8 }}
            items={props.links.map((l) => ({
              key: l.path,
              label: <Link to={{ pathname: l.path, search: listSearch }}>{l.label}</Link>,
            }))}
          />
        )}
        {tags.length > 0 && (!phone || tagsOpen) && (
          <div className={styles.tags} data-testid="tags-filter">
            <Typography.Text type="secondary">Tags</Typography.Text>
            <div>
              {tags.map((tag) => {
                const on = address.tags.includes(tag.name);
                return (
                  <Tag.CheckableTag
                    key={tag.name}
                    checked={on}
                    onChange={(checked) =>
                      update({
                        tags: checked
                          ? [...address.tags, tag.name]
                          : address.tags.filter((t) => t !== tag.name),
                        page: null,
                      })
                    }
                  >
                    {tag.name} {tag.count}
                  </Tag.CheckableTag>
                );
              })}
            </div>
          </div>
        )}
      </aside>
      <section className={styles.main}>{props.children}</section>
    </div>
  );
}

/** A centred icon (an antd icon, drawn large and faint), the spec's text and, where the spec offers
 *  one, the action that fills the list. */
export function ListEmptyState(props: { icon: ReactNode; text: string; action?: ReactNode }) {
  return (
    <div className={styles.empty} data-testid="empty-state">
      {props.icon}
      <Typography.Paragraph style={{ marginTop: 12 }}>{props.text}</Typography.Paragraph>
      {props.action}
    </div>
  );
}

export const listStyles = styles;
