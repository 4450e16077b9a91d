import { setQueryFavorite } from "../../api/queries";
import { FavoriteToggle } from "../../components/listPage/FavoriteToggle";

interface FavoriteStarProps {
  queryId: number;
  value: boolean;
  onChange?: (favorite: boolean) => void;
}

/** The favorite toggle of a query, in the list and in the query page's header. */
export function FavoriteStar({ queryId, value, onChange }: FavoriteStarProps) {
  return (
    <FavoriteToggle
      value={value}
      save={(next) => setQueryFavorite(queryId, next)}
      onChange={onChange}
    />
  );
}
