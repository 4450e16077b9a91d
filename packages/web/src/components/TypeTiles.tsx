// The tiles of the data source and alert destination lists (spec 2 §2): each item's type logo,
// name and type name, linking to its page.
import type { ReactNode } from "react";
import { Link } from "react-router";
import styles from "./TypeTiles.module.css";

export interface TypeTile {
  id: number;
  to: string;
  name: string;
  typeName: string;
  logo: ReactNode;
}

export function TypeTiles({ tiles, testId }: { tiles: TypeTile[]; testId: string }) {
  return (
    <div className={styles.tiles} data-testid={testId}>
      {tiles.map((tile) => (
        <Link key={tile.id} to={tile.to} className={styles.tile}>
          {tile.logo}
          <span className={styles.tileText}>
            <span className={styles.tileName}>{tile.name}</span>
            <span className={styles.tileType}>{tile.typeName}</span>
          </span>
        </Link>
      ))}
    </div>
  );
}

/** The tiles' grid, for placeholders while the list loads. */
export const typeTilesGrid = styles.tiles;
