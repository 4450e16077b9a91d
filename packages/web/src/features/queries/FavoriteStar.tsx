import { StarFilled, StarOutlined } from "@ant-design/icons";
import { Tooltip } from "antd";
import { useState } from "react";
import { setQueryFavorite } from "../../api/queries";
import { notify } from "../../app/notifications";
import styles from "./QueryListPage.module.css";

interface FavoriteStarProps {
  queryId: number;
  value: boolean;
  onChange?: (favorite: boolean) => void;
}

/** The favorite toggle of a query: flips at once, turns back if the call fails. */
export function FavoriteStar({ queryId, value, onChange }: FavoriteStarProps) {
  const [favorite, setFavorite] = useState(value);
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setFavorite(value);
  }
  const toggle = () => {
    const next = !favorite;
    setFavorite(next);
    setQueryFavorite(queryId, next).then(
      () => onChange?.(next),
      (error: Error) => {
        setFavorite(!next);
        notify.error(error.message);
      },
    );
  };
  const label = favorite ? "Remove from favorites" : "Add to favorites";
  return (
    <Tooltip title={label}>
      <span
        role="button"
        tabIndex={0}
        aria-label={label}
        aria-pressed={favorite}
        data-testid="favorite-star"
        className={`${styles.star} ${favorite ? styles.starOn : ""}`}
        onClick={toggle}
        onKeyDown={(e) => (e.key === "Enter" || e.key === " ") && toggle()}
      >
        {favorite ? <StarFilled /> : <StarOutlined />}
      </span>
    </Tooltip>
  );
}
