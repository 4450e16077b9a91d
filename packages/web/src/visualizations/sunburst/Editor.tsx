import { Typography } from "antd";

/** SUNBURST_SEQUENCE has no options: the editor only describes the data it expects. */
export function SunburstEditor() {
  return (
    <Typography.Paragraph>
      Either <code>sequence</code>, <code>stage</code>, <code>node</code>, <code>value</code> rows
      (one path per sequence, ordered by stage), or one row per path: the stage columns in name
      order and a <code>value</code> column.
    </Typography.Paragraph>
  );
}
