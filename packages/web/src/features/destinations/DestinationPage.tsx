import { DeleteOutlined, SendOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Skeleton } from "antd";
import { useMemo, useState } from "react";
import { useNavigate, useParams } from "react-router";
import {
  deleteDestination,
  getDestination,
  listDestinationTypes,
  saveDestination,
  type Destination,
  type DestinationType,
} from "../../api/destinations";
import { isApiError } from "../../api/errors";
import { ErrorScreen } from "../../app/ErrorScreen";
import { notify } from "../../app/notifications";
import { isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { DynamicForm, type DynamicFormValues } from "../../components/dynamicForm/DynamicForm";
import { FAILED_SAVING } from "../../components/dynamicForm/CreateFromTypeDialog";
import { fieldsFromSchema } from "../../components/dynamicForm/schemaFields";
import { SettingsFrame } from "../settings/SettingsFrame";
import { DestinationLogo } from "./DestinationLogo";
import { testDestination, type DestinationWithFailure } from "./deliveries";
import { LastFailure } from "./LastFailure";
import { TEST_NOTIFICATION, TestOutcomeMessage, useTestNotification } from "./TestNotification";
import { DESTINATIONS_KEY, DESTINATION_TYPES_KEY, destinationKey } from "./queryKeys";
import styles from "./destinations.module.css";

export const DELETE_CONFIRM = "Are you sure you want to delete this alert destination?";
export const DELETED_MESSAGE = "Alert destination deleted successfully.";

function parseDestinationId(raw: string | undefined): number | null {
  return raw && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}

/** /destinations/{id}: the destination's form, Save and Delete (spec 2 §2 Alert destinations). */
export default function DestinationPage() {
  const { user } = useSession();
  const admin = isAdmin(user);
  const id = parseDestinationId(useParams().destinationId);
  const destination = useQuery({
    queryKey: destinationKey(id ?? 0),
    queryFn: () => getDestination(id!),
    enabled: admin && id !== null,
    retry: (count, error) => !(isApiError(error) && error.status < 500) && count < 2,
  });
  const types = useQuery({
    queryKey: DESTINATION_TYPES_KEY,
    queryFn: listDestinationTypes,
    enabled: admin,
    staleTime: Infinity,
  });

  let body;
  if (id === null) body = <ErrorScreen error={{ status: 404 }} />;
  else if (destination.isError) body = <ErrorScreen error={destination.error} />;
  else if (types.isError) body = <Alert type="error" showIcon title={types.error.message} />;
  else if (destination.isPending || types.isPending) {
    body = (
      <Card className={styles.editCard}>
        <Skeleton active avatar paragraph={{ rows: 4 }} />
      </Card>
    );
  } else {
    const type = types.data.find((t) => t.type === destination.data.type) ?? null;
    body = <DestinationEditor destination={destination.data} type={type} />;
  }

  return (
    <SettingsFrame title={destination.data?.name ?? "Alert Destination"} permission="admin">
      {body}
    </SettingsFrame>
  );
}

interface EditorProps {
  destination: Destination;
  type: DestinationType | null;
}

function DestinationEditor({ destination, type }: EditorProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { modal } = App.useApp();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fields = useMemo(
    () => (type ? fieldsFromSchema(type.configuration_schema, destination.options ?? {}) : []),
    [type, destination.options],
  );
  const test = useTestNotification();

  async function save(values: DynamicFormValues) {
    setSaving(true);
    setError(null);
    try {
      const saved = await saveDestination(destination.id, {
        name: values.name,
        type: destination.type,
        options: values.options,
      });
      queryClient.setQueryData(destinationKey(destination.id), saved);
      void queryClient.invalidateQueries({ queryKey: DESTINATIONS_KEY });
      notify.success("Saved.");
    } catch (e) {
      setError((isApiError(e) && e.serverMessage) || FAILED_SAVING);
    } finally {
      setSaving(false);
    }
  }

  function confirmDelete() {
    modal.confirm({
      title: "Delete Alert Destination",
      content: DELETE_CONFIRM,
      okText: "Delete",
      okButtonProps: { danger: true },
      cancelText: "Cancel",
      onOk: async () => {
        try {
          await deleteDestination(destination.id);
        } catch (e) {
          notify.error((isApiError(e) && e.serverMessage) || "Failed deleting alert destination.");
          return;
        }
        queryClient.removeQueries({ queryKey: destinationKey(destination.id) });
        await queryClient.invalidateQueries({ queryKey: DESTINATIONS_KEY });
        notify.success(DELETED_MESSAGE);
        navigate("/destinations");
      },
    });
  }

  return (
    <Card className={styles.editCard}>
      <div className={styles.editHeader}>
        <DestinationLogo type={destination.type} size={48} />
        <div>
          <div className={styles.editType}>{type?.name ?? destination.type}</div>
        </div>
      </div>
      <LastFailure destination={destination as DestinationWithFailure} />
      {!type && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={`This server does not know the destination type "${destination.type}".`}
        />
      )}
      <DynamicForm
        // A fresh form after each save, so that it holds what the server stored.
        key={JSON.stringify([destination.name, destination.options])}
        fields={fields}
        initialName={destination.name}
        onSubmit={(values) => void save(values)}
        submitting={saving}
        error={error}
        actions={
          <>
            <Button
              icon={<SendOutlined />}
              loading={test.sending}
              onClick={() => void test.run(() => testDestination(destination.id))}
              data-testid="test-destination"
            >
              {TEST_NOTIFICATION}
            </Button>
            <Button
              danger
              icon={<DeleteOutlined />}
              onClick={confirmDelete}
              data-testid="delete-destination"
            >
              Delete
            </Button>
          </>
        }
      />
      <TestOutcomeMessage outcome={test.outcome} />
    </Card>
  );
}
