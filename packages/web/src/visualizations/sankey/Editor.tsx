import { Typography } from "antd";

/** SANKEY has no options: the editor only describes the data it expects. */
export function SankeyEditor() {
  return (
    <Typography.Paragraph>
      This visualization expects the query result to have rows in the following format:{" "}
      <code>stage1</code>, <code>stage2</code>, <code>stage3</code>, <code>stage4</code>,{" "}
      <code>stage5</code> (up to five stage columns, read in name order) and <code>value</code>. A
      stage left empty ends the path.
    </Typography.Paragraph>
  );
}
