import { StarFilled } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Alert, Card, Skeleton, Tag, Typography } from "antd";
import { Link } from "react-router";
import styles from "./HomePage.module.css";

export interface FavoriteItem {
  id: number;
  name: string;
  href: string;
  isDraft?: boolean;
}

interface FavoritesCardProps {
  title: string;
  queryKey: string;
  load: () => Promise<FavoriteItem[]>;
  emptyText: string;
  allHref: string;
  allLabel: string;
  testId: string;
}

/** A card listing the user's favorite dashboards or queries. */
export function FavoritesCard(props: FavoritesCardProps) {
  const favorites = useQuery({ queryKey: ["favorites", props.queryKey], queryFn: props.load });

  let body;
  if (favorites.isPending) {
    body = <Skeleton active title={false} paragraph={{ rows: 4 }} />;
  } else if (favorites.isError) {
    body = <Alert type="error" showIcon title={favorites.error.message} />;
  } else if (favorites.data.length === 0) {
    body = <Typography.Text type="secondary">{props.emptyText}</Typography.Text>;
  } else {
    body = (
      <ul className={styles.favorites}>
        {favorites.data.map((item) => (
          <li key={item.id}>
            <StarFilled className={styles.star} />
            <Link to={item.href} className={styles.favoriteName}>
              {item.name}
            </Link>
            {item.isDraft && <Tag>Unpublished</Tag>}
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Card
      title={props.title}
      data-testid={props.testId}
      extra={<Link to={props.allHref}>{props.allLabel}</Link>}
      className={styles.favoritesCard}
    >
      {body}
    </Card>
  );
}
