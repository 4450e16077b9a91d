// Where a drill-down link's targets come from, as the link fields need them: a search of
// dashboards or queries by name, and the parameters a chosen target takes. The host that shows
// the fields hands a source in (apiDrillDownTargets.ts reads the API), so the visualization
// editors that show them draw what they are given and fetch nothing themselves.
import type { DrillDownTarget } from "@sightline/core";

export type TargetType = DrillDownTarget["type"];

/** A parameter of the target, as the mapping form shows it. */
export interface TargetParameter {
  name: string;
  title: string;
  type: string;
}

export interface DrillDownTargetSource {
  /** Targets of a type whose name matches the text (all, for an empty text), as stored targets. */
  search(type: TargetType, text: string): Promise<DrillDownTarget[]>;
  /** The parameters the target takes in its address (p_<name>). */
  parameters(target: DrillDownTarget): Promise<TargetParameter[]>;
}
