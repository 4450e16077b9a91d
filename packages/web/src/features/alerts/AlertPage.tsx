// /alerts/new, /alerts/:alertId and /alerts/:alertId/edit (spec 3 §2, §4 Alert page modes).
import { useQuery } from "@tanstack/react-query";
import { Alert as Banner, App, Skeleton } from "antd";
import { useEffect } from "react";
import { useLocation, useNavigate, useParams } from "react-router";
import { getAlert } from "../../api/alerts";
import { isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { PageHeader } from "../../components/PageHeader";
import { AlertForm } from "./AlertForm";
import { AlertView, NO_EDIT_PERMISSION } from "./AlertView";
import { canEditAlert } from "./alertRules";
import { alertKey } from "./queryKeys";

export default function AlertPage() {
  const { alertId } = useParams();
  if (!alertId) {
    return (
      <div>
        <PageHeader title="New Alert" />
        <AlertForm />
      </div>
    );
  }
  return <StoredAlertPage key={alertId} id={Number(alertId)} />;
}

function StoredAlertPage({ id }: { id: number }) {
  const session = useSession();
  const navigate = useNavigate();
  const { notification } = App.useApp();
  const editing = useLocation().pathname.replace(/\/+$/, "").endsWith("/edit");
  const alert = useQuery({ queryKey: alertKey(id), queryFn: () => getAlert(id) });
  const canEdit = alert.data
    ? canEditAlert(session.user.id, alert.data, isAdmin(session.user))
    : false;
  const forcedToView = editing && alert.data !== undefined && !canEdit;

  // Without edit permission the edit page turns into the view, with a warning that stays.
  useEffect(() => {
    if (!forcedToView) return;
    notification.warning({
      title: "You cannot edit this alert",
      description: `${NO_EDIT_PERMISSION}, and have been redirected to the view-only page.`,
      duration: 0,
    });
    navigate(`/alerts/${id}`, { replace: true });
  }, [forcedToView]);

  if (alert.isError) {
    return (
      <div>
        <PageHeader title="Alert" />
        <Banner type="error" showIcon title={alert.error.message} />
      </div>
    );
  }
  if (alert.isPending) {
    return <Skeleton active paragraph={{ rows: 10 }} />;
  }
  if (editing && canEdit) {
    return (
      <div>
        <PageHeader title={alert.data.name} wrapTitle />
        <AlertForm alert={alert.data} />
      </div>
    );
  }
  return <AlertView alert={alert.data} canEdit={canEdit} />;
}
