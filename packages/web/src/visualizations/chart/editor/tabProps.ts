// What every tab of the chart editor gets: the options as read, and a way to change them.
import type { Options } from "../../types";
import type { ChartOptions } from "../options";

export interface ChartTabProps {
  options: ChartOptions;
  /** Merges these changes into the stored options. */
  set: (changes: Options) => void;
}
