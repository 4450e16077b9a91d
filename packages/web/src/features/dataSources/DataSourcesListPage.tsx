import { PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Empty, Skeleton } from "antd";
import { Link, useLocation, useNavigate } from "react-router";
import {
  createDataSource,
  listDataSources,
  listDataSourceTypes,
  type DataSource,
} from "../../api/dataSources";
import { isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { TypeTiles } from "../../components/TypeTiles";
import { CreateFromTypeDialog } from "../../components/dynamicForm/CreateFromTypeDialog";
import { SettingsFrame } from "../settings/SettingsFrame";
import { setupLink } from "./setupLinks";
import { TypeLogo } from "./typeLogos";

/** /data_sources and /data_sources/new (spec 2 §2 Data sources). */
export default function DataSourcesListPage() {
  const { user } = useSession();
  const admin = isAdmin(user);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sources = useQuery({ queryKey: ["dataSources"], queryFn: listDataSources, enabled: admin });
  const types = useQuery({
    queryKey: ["dataSourceTypes"],
    queryFn: listDataSourceTypes,
    enabled: admin,
  });
  // Creation needs the admin permission and the list of types.
  const canCreate = admin && (types.data?.length ?? 0) > 0;
  const creating = pathname.endsWith("/data_sources/new") && canCreate;
  const typeNames = new Map((types.data ?? []).map((t) => [t.type, t.name]));

  let body;
  if (sources.isError) body = <Alert type="error" showIcon title={sources.error.message} />;
  else if (sources.isPending) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (sources.data.length === 0) {
    body = (
      <Card>
        <Empty
          description={
            <span>
              There are no data sources yet.
              {canCreate && (
                <>
                  {" "}
                  <Link to="/data_sources/new">Click here</Link> to add one.
                </>
              )}
            </span>
          }
        />
      </Card>
    );
  } else {
    body = (
      <TypeTiles
        testId="data-source-tiles"
        tiles={sources.data.map((ds: DataSource) => ({
          id: ds.id,
          to: `/data_sources/${ds.id}`,
          name: ds.name,
          typeName: typeNames.get(ds.type) ?? ds.type,
          logo: <TypeLogo type={ds.type} />,
        }))}
      />
    );
  }

  return (
    <SettingsFrame
      title="Data Sources"
      permission="admin"
      actions={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          disabled={!canCreate}
          onClick={() => navigate("/data_sources/new")}
        >
          New Data Source
        </Button>
      }
    >
      {body}
      {creating && (
        <CreateFromTypeDialog<DataSource>
          title="Create a New Data Source"
          types={types.data ?? []}
          logo={(type) => <TypeLogo type={type} />}
          helpLink={setupLink}
          create={(type, values) =>
            createDataSource({ type: type.type, name: values.name, options: values.options })
          }
          onCreated={(created) => {
            void queryClient.invalidateQueries({ queryKey: ["dataSources"] });
            navigate(`/data_sources/${created.id}`);
          }}
          onCancel={() => navigate("/data_sources")}
        />
      )}
    </SettingsFrame>
  );
}
