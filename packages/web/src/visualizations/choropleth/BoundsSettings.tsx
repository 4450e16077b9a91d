// The choropleth editor's Bounds tab: the saved view's north-east and south-west corners.
// Moving the preview map fills them in; an empty field takes the map's own edge.
import { Alert, Button, InputNumber, Space } from "antd";
import { getMap } from "echarts/core";
import { useEffect, useMemo, useState } from "react";
import { Field } from "../components/controls";
import { useGeoMap } from "../components/useGeoMap";
import { extentOf, parseBounds, supportsBounds, toStoredBounds, type LatLngBox } from "./bounds";

type Corner = "north" | "east" | "south" | "west";
type Draft = Record<Corner, number | null>;

const EMPTY: Draft = { north: null, east: null, south: null, west: null };

/** The registered outline's extent, for the fields of a map without saved bounds. */
function useMapExtent(mapType: string): LatLngBox | null {
  const { geo } = useGeoMap(mapType);
  return useMemo(() => {
    if (!geo) return null;
    const registered = getMap(`sightline-${mapType}`) as {
      geoJSON?: { features?: { geometry: { type: string } | null }[] };
    } | null;
    return extentOf(registered?.geoJSON?.features ?? []);
  }, [geo, mapType]);
}

export function BoundsSettings({
  mapType,
  bounds,
  onChange,
  onClear,
}: {
  mapType: string;
  /** The stored `bounds` option, whatever its shape. */
  bounds: unknown;
  onChange: (bounds: [[number, number], [number, number]]) => void;
  onClear: () => void;
}) {
  const enabled = supportsBounds(mapType);
  const extent = useMapExtent(enabled ? mapType : "");
  const saved = parseBounds(bounds);
  const savedKey = JSON.stringify(saved);
  const [draft, setDraft] = useState<Draft>(saved ?? EMPTY);
  // The preview map or another tab may change the bounds: the fields follow.
  useEffect(() => setDraft(saved ?? EMPTY), [savedKey]);

  const change = (corner: Corner, value: number | null) => {
    const next = { ...draft, [corner]: value };
    setDraft(next);
    const filled = {
      north: next.north ?? extent?.north,
      east: next.east ?? extent?.east,
      south: next.south ?? extent?.south,
      west: next.west ?? extent?.west,
    };
    const box = parseBounds([
      [filled.south, filled.west],
      [filled.north, filled.east],
    ]);
    if (box) onChange(toStoredBounds(box));
  };

  const input = (corner: Corner, label: string, min: number, max: number) => (
    <InputNumber
      aria-label={label}
      style={{ width: "100%" }}
      value={draft[corner]}
      min={min}
      max={max}
      step={1}
      disabled={!enabled}
      placeholder={extent ? String(extent[corner]) : undefined}
      onChange={(v) => change(corner, typeof v === "number" ? v : null)}
    />
  );

  return (
    <>
      {enabled ? null : (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title="This map is drawn from projected outlines, without latitudes and longitudes: it is always shown whole."
        />
      )}
      <Field label="North-East latitude and longitude">
        <Space.Compact block>
          {input("north", "North-East latitude", -90, 90)}
          {input("east", "North-East longitude", -360, 360)}
        </Space.Compact>
      </Field>
      <Field
        label="South-West latitude and longitude"
        hint={
          enabled
            ? "Move the preview map to fill these in. Empty, the whole map is shown."
            : undefined
        }
      >
        <Space.Compact block>
          {input("south", "South-West latitude", -90, 90)}
          {input("west", "South-West longitude", -360, 360)}
        </Space.Compact>
      </Field>
      <Button disabled={!saved} onClick={onClear} data-testid="choropleth-bounds-reset">
        Show the whole map
      </Button>
    </>
  );
}
