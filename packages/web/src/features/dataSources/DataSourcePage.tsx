import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Popconfirm, Skeleton } from "antd";
import { useMemo, useState } from "react";
import { useNavigate, useParams } from "react-router";
import {
  deleteDataSource,
  getDataSource,
  listDataSourceTypes,
  saveDataSource,
  testDataSource,
  type ConnectionTestResult,
  type DataSource,
  type DataSourceType,
} from "../../api/dataSources";
import { isApiError } from "../../api/errors";
import { ErrorScreen } from "../../app/ErrorScreen";
import { NOTIFICATION_CONFIG, notify } from "../../app/notifications";
import { isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { DynamicForm, type DynamicFormValues } from "../../components/dynamicForm/DynamicForm";
import { FAILED_SAVING } from "../../components/dynamicForm/CreateFromTypeDialog";
import { fieldsFromSchema } from "../../components/dynamicForm/schemaFields";
import { TypeHeading } from "../../components/dynamicForm/TypeHeading";
import { usePageTitle } from "../../components/usePageTitle";
import { SettingsFrame } from "../settings/SettingsFrame";
import { saveErrorMessage } from "../users/messages";
import { DATA_SOURCE_GONE, refusedTest, testNotice } from "./connectionTest";
import { DataSourceFiles } from "./DataSourceFiles";
import { UPLOADS_TYPE } from "./fileUploadState";
import { setupLink } from "./setupLinks";
import { TypeLogo } from "./typeLogos";
import styles from "./dataSources.module.css";

/** /data_sources/{id}: the edit form, Delete and Test Connection. */
export default function DataSourcePage() {
  const id = Number(useParams().dataSourceId);
  const { user } = useSession();
  const admin = isAdmin(user);
  const source = useQuery({
    queryKey: ["dataSource", id],
    queryFn: () => getDataSource(id),
    enabled: admin,
    retry: false,
  });
  const types = useQuery({
    queryKey: ["dataSourceTypes"],
    queryFn: listDataSourceTypes,
    enabled: admin,
  });
  usePageTitle(source.data?.name ?? "Data Sources");

  let body;
  if (source.isError || types.isError) body = <ErrorScreen error={source.error ?? types.error} />;
  else if (!source.data || !types.data) body = <Skeleton active paragraph={{ rows: 8 }} />;
  else {
    const type = types.data.find((t) => t.type === source.data.type);
    body = type ? (
      <>
        <EditForm key={source.data.id} id={id} source={source.data} type={type} />
        {type.type === UPLOADS_TYPE && <DataSourceFiles id={id} />}
      </>
    ) : (
      <ErrorScreen error={{ status: 404 }} />
    );
  }
  return (
    <SettingsFrame title="Data Sources" permission="admin">
      {body}
    </SettingsFrame>
  );
}

function EditForm({ id, source, type }: { id: number; source: DataSource; type: DataSourceType }) {
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const fields = useMemo(
    () => fieldsFromSchema(type.configuration_schema, source.options ?? {}),
    [type, source],
  );

  async function save(values: DynamicFormValues) {
    setSaving(true);
    setError(null);
    try {
      const saved = await saveDataSource(id, { type: type.type, ...values });
      queryClient.setQueryData(["dataSource", id], saved);
      void queryClient.invalidateQueries({ queryKey: ["dataSources"] });
      notify.success("Saved.");
    } catch (e) {
      // Deleted meanwhile (another tab): say so, not the server's words for an unknown address.
      if (isApiError(e) && e.status === 404) setError(DATA_SOURCE_GONE);
      else setError(saveErrorMessage(e) || FAILED_SAVING);
    } finally {
      setSaving(false);
    }
  }

  async function test() {
    setTesting(true);
    // A refusal shows the server's reason; another failed call (no answer) has its own message.
    const result: ConnectionTestResult | null = await testDataSource(id).catch(refusedTest);
    setTesting(false);
    const notice = testNotice(result);
    notification[notice.kind]({
      ...NOTIFICATION_CONFIG,
      title: notice.title,
      description: notice.description,
      duration: notice.duration ?? NOTIFICATION_CONFIG.duration,
    });
  }

  async function remove() {
    try {
      await deleteDataSource(id);
    } catch (e) {
      // Gone already (deleted in another tab): what the user asked for is done.
      if (!isApiError(e) || e.status !== 404) {
        notify.error(saveErrorMessage(e));
        return;
      }
    }
    notify.success("Data source deleted successfully.");
    queryClient.removeQueries({ queryKey: ["dataSource", id], exact: true });
    void queryClient.invalidateQueries({ queryKey: ["dataSources"] });
    navigate("/data_sources");
  }

  return (
    <Card className={styles.edit} data-testid="data-source-edit">
      <TypeHeading logo={<TypeLogo type={type.type} size={48} />} helpLink={setupLink(type.type)}>
        <div>
          <strong>{source.name}</strong>
          <div className={styles.editType}>{type.name}</div>
        </div>
      </TypeHeading>
      <DynamicForm
        fields={fields}
        initialName={source.name}
        onSubmit={(values) => void save(values)}
        submitting={saving}
        error={error}
        actions={
          <>
            <Button loading={testing} onClick={() => void test()}>
              Test Connection
            </Button>
            <Popconfirm
              title="Are you sure you want to delete this data source?"
              okText="Delete"
              okButtonProps={{ danger: true }}
              onConfirm={() => remove()}
            >
              <Button danger>Delete</Button>
            </Popconfirm>
          </>
        }
      />
    </Card>
  );
}
