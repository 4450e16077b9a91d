import { StarFilled, StarOutlined } from "@ant-design/icons";
import { Tooltip } from "antd";
import { useState } from "react";
import { notify } from "../../app/notifications";
import styles from "./ListPage.module.css";

interface FavoriteToggleProps {
  value: boolean;
  /** Saves the new state; a failure turns the star back and shows the error. */
  save: (favorite: boolean) => Promise<unknown>;
  onChange?: (favorite: boolean) => void;
}

/** The favorite star of a list row or page header: flips at once, turns back if the call fails. */
export function FavoriteToggle({ value, save, onChange }: FavoriteToggleProps) {
  const [favorite, setFavorite] = useState(value);
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setFavorite(value);
  }
  const toggle = () => {
    const next = !favorite;
    setFavorite(next);
    save(next).then(
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
