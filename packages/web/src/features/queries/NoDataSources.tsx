// What /queries/new shows when there is no data source to write a query for (spec 2 §2).
import { Alert, Button, Space } from "antd";
import { useNavigate } from "react-router";

export function NoDataSources({ admin, hasAny }: { admin: boolean; hasAny: boolean }) {
  const navigate = useNavigate();
  if (hasAny) {
    return (
      <Alert
        type="warning"
        showIcon
        title="You don't have permission to create new queries on any of the data sources available to you."
      />
    );
  }
  return (
    <Alert
      type="info"
      showIcon
      title={
        admin
          ? "Looks like no data sources were created yet or none of them available to the group(s) you're member of."
          : "Looks like no data sources were created yet or none of them available to the group(s) you're member of. Please ask your Sightline admin to create one."
      }
      action={
        admin && (
          <Space direction="vertical">
            <Button type="primary" onClick={() => navigate("/data_sources/new")}>
              Create Data Source
            </Button>
            <Button onClick={() => navigate("/groups")}>Manage Group Permissions</Button>
          </Space>
        )
      }
    />
  );
}
