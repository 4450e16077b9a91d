import { useEffect, useState } from "react";
import { loadMap, type LoadedMap } from "../lib/geo";

/** The map's regions once loaded and registered; `missing` when it is not bundled. */
export function useGeoMap(key: string): {
  geo: LoadedMap | null;
  state: "loading" | "ready" | "missing" | "error";
} {
  const [result, setResult] = useState<{
    key: string;
    geo: LoadedMap | null;
    state: "loading" | "ready" | "missing" | "error";
  }>({ key, geo: null, state: "loading" });
  useEffect(() => {
    let live = true;
    loadMap(key).then(
      (geo) => live && setResult({ key, geo, state: geo ? "ready" : "missing" }),
      () => live && setResult({ key, geo: null, state: "error" }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return result.key === key ? result : { geo: null, state: "loading" };
}
