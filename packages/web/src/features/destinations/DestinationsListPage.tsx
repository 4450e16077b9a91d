import { PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Empty, Skeleton } from "antd";
import { useLocation, useNavigate } from "react-router";
import {
  createDestination,
  listDestinations,
  listDestinationTypes,
  type Destination,
} from "../../api/destinations";
import { isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { TypeTiles, typeTilesGrid } from "../../components/TypeTiles";
import { CreateFromTypeDialog } from "../../components/dynamicForm/CreateFromTypeDialog";
import { SettingsFrame } from "../settings/SettingsFrame";
import { DestinationLogo } from "./DestinationLogo";
import { DESTINATIONS_KEY, DESTINATION_TYPES_KEY } from "./queryKeys";

export const EMPTY_MESSAGE = "There are no alert destinations yet.";

/** /destinations and /destinations/new: the tiles, with the create dialog over them (spec 2 §2). */
export default function DestinationsListPage() {
  const { user } = useSession();
  const admin = isAdmin(user);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const creating = admin && pathname.replace(/\/+$/, "").endsWith("/destinations/new");

  const destinations = useQuery({
    queryKey: DESTINATIONS_KEY,
    queryFn: listDestinations,
    enabled: admin,
  });
  const types = useQuery({
    queryKey: DESTINATION_TYPES_KEY,
    queryFn: listDestinationTypes,
    enabled: admin,
    staleTime: Infinity,
  });
  const typeName = (type: string) => types.data?.find((t) => t.type === type)?.name ?? type;

  return (
    <SettingsFrame
      title="Alert Destinations"
      permission="admin"
      actions={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => navigate("/destinations/new")}
          data-testid="new-destination"
        >
          New Alert Destination
        </Button>
      }
    >
      {destinations.isPending ? (
        <div className={typeTilesGrid}>
          {Array.from({ length: 4 }, (_, i) => (
            <Card key={i}>
              <Skeleton active avatar paragraph={false} />
            </Card>
          ))}
        </div>
      ) : destinations.isError ? (
        <Alert type="error" showIcon title={destinations.error.message} />
      ) : destinations.data.length === 0 ? (
        <Card>
          <Empty description={EMPTY_MESSAGE} />
        </Card>
      ) : (
        <TypeTiles
          testId="destination-list"
          tiles={destinations.data.map((d) => ({
            id: d.id,
            to: `/destinations/${d.id}`,
            name: d.name,
            typeName: typeName(d.type),
            logo: <DestinationLogo type={d.type} />,
          }))}
        />
      )}
      {creating && types.data && (
        <CreateFromTypeDialog<Destination>
          title="Create a New Alert Destination"
          types={types.data}
          logo={(type) => <DestinationLogo type={type} />}
          create={(type, values) =>
            createDestination({ name: values.name, type: type.type, options: values.options })
          }
          onCreated={(created) => {
            void queryClient.invalidateQueries({ queryKey: DESTINATIONS_KEY });
            navigate(`/destinations/${created.id}`);
          }}
          onCancel={() => navigate("/destinations")}
        />
      )}
      {creating && types.isError && (
        <Alert type="error" showIcon title={types.error.message} style={{ marginTop: 16 }} />
      )}
    </SettingsFrame>
  );
}
