import { StarFilled, StarOutlined } from "@ant-design/icons";
import { Tooltip } from "antd";
import { useRef, useState } from "react";
import { notify } from "../../app/notifications";
import styles from "./ListPage.module.css";

interface FavoriteToggleProps {
  value: boolean;
  /** Saves the new state; a failure turns the star back and shows the error. */
  save: (favorite: boolean) => Promise<unknown>;
  onChange?: (favorite: boolean) => void;
}

/**
 * The favorite star of a list row or page header: flips at once, turns back if the call fails.
 * One save at a time: a double click's two calls sent together could reach the server in either
 * order and leave it holding the opposite of the star. Clicks made while a save is on its way
 * are sent after it, as one call for where the star ended.
 */
export function FavoriteToggle({ value, save, onChange }: FavoriteToggleProps) {
  const [favorite, setFavorite] = useState(value);
  const [shown, setShown] = useState(value);
  const saving = useRef<{ wanted: boolean; saved: boolean } | null>(null);
  if (value !== shown) {
    // The owner's value changed (a reload, another tab): shown unless our own save is on its way.
    setShown(value);
    if (saving.current === null) setFavorite(value);
  }

  async function sendUntilSettled(state: { wanted: boolean; saved: boolean }) {
    while (state.wanted !== state.saved) {
      const target = state.wanted;
      try {
        await save(target);
      } catch (error) {
        saving.current = null;
        setFavorite(state.saved);
        notify.error((error as Error).message);
        return;
      }
      state.saved = target;
      onChange?.(target);
    }
    saving.current = null;
  }

  const toggle = () => {
    const next = !favorite;
    setFavorite(next);
    if (saving.current) {
      saving.current.wanted = next;
      return;
    }
    saving.current = { wanted: next, saved: favorite };
    void sendUntilSettled(saving.current);
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
