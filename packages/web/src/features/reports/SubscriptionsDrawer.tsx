// "Subscriptions" of the dashboard's menu (issue 28): its report subscriptions in a side drawer,
// with the form to create or edit one and each one's run history.
import { PlusOutlined } from "@ant-design/icons";
import { Alert, Button, Drawer, Grid, Skeleton } from "antd";
import { useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import type { DashboardDetail } from "../../api/dashboards";
import { isApiError } from "../../api/errors";
import type { ReportRun, ReportSubscription } from "../../api/reports";
import { notify } from "../../app/notifications";
import { useSession } from "../../app/session";
import { dashboardParameters } from "../../lib/parameterMappings";
import { dashboardParameterValues } from "../dashboards/dashboardParameters";
import { localToUtc } from "../queries/scheduleRules";
import dayjs from "dayjs";
import { RunHistory } from "./RunHistory";
import { SubscriptionForm } from "./SubscriptionForm";
import { SubscriptionList } from "./SubscriptionList";
import { newSubscriptionValues, subscriptionInput, subscriptionValues } from "./subscriptionForm";
import { useReportDestinations, useSubscriptionChanges, useSubscriptions } from "./useReports";
import styles from "./Subscriptions.module.css";

export const SUBSCRIPTIONS_TITLE = "Subscriptions";
export const NO_SUBSCRIPTIONS =
  "No report subscriptions yet. Subscribe to have this dashboard sent by e-mail or to a destination on a schedule.";

type View =
  | { kind: "list" }
  | { kind: "form"; subscription: ReportSubscription | null }
  | { kind: "history"; subscription: ReportSubscription };

const messageOf = (error: unknown) =>
  isApiError(error) || error instanceof Error ? error.message : String(error);

export function SubscriptionsDrawer(props: { dashboard: DashboardDetail; onClose: () => void }) {
  const { dashboard } = props;
  const owner = useMemo(() => ({ kind: "dashboard" as const, id: dashboard.id }), [dashboard.id]);
  const session = useSession();
  const screens = Grid.useBreakpoint();
  const [view, setView] = useState<View>({ kind: "list" });
  const [sent, setSent] = useState<ReadonlyMap<number, ReportRun>>(new Map());
  const subscriptions = useSubscriptions(owner);
  const destinations = useReportDestinations(true);
  const changes = useSubscriptionChanges(owner);

  // The report's parameter values start as the dashboard's current ones (its address).
  const [search] = useSearchParams();
  const order = dashboard.options?.globalParamOrder;
  const parameters = useMemo(
    () =>
      dashboardParameters(dashboard.widgets ?? [], Array.isArray(order) ? order.map(String) : []),
    [dashboard.widgets, order],
  );
  const currentValues = useMemo(
    () => dashboardParameterValues(parameters, search),
    [parameters, search],
  );

  const send = (subscription: ReportSubscription) =>
    changes.send.mutate(subscription.id, {
      onSuccess: (run) => setSent((m) => new Map(m).set(subscription.id, run)),
      onError: (error) => notify.error("The report could not be sent", messageOf(error)),
    });

  const title =
    view.kind === "form"
      ? view.subscription
        ? `Edit “${view.subscription.name}”`
        : "New subscription"
      : view.kind === "history"
        ? `Run history: ${view.subscription.name}`
        : SUBSCRIPTIONS_TITLE;

  let body: React.ReactNode;
  if (view.kind === "form") {
    const initial = view.subscription
      ? subscriptionValues(view.subscription)
      : newSubscriptionValues(
          dashboard.name,
          currentValues,
          (local) => localToUtc(local, dayjs().utcOffset()),
          session.user.email,
        );
    body = (
      <SubscriptionForm
        initial={initial}
        parameters={parameters}
        saving={changes.save.isPending}
        saveError={changes.save.error ? messageOf(changes.save.error) : null}
        onCancel={() => {
          changes.save.reset();
          setView({ kind: "list" });
        }}
        onSave={(values) =>
          changes.save.mutate(
            { id: view.subscription?.id ?? null, input: subscriptionInput(values) },
            {
              onSuccess: () => {
                notify.success(view.subscription ? "Subscription saved" : "Subscription created");
                setView({ kind: "list" });
              },
            },
          )
        }
      />
    );
  } else if (view.kind === "history") {
    body = (
      <RunHistory subscriptionId={view.subscription.id} onBack={() => setView({ kind: "list" })} />
    );
  } else if (subscriptions.isLoading) {
    body = <Skeleton active />;
  } else if (subscriptions.error) {
    body = <Alert type="error" showIcon title={messageOf(subscriptions.error)} />;
  } else {
    const list = subscriptions.data ?? [];
    body = (
      <>
        <div className={styles.toolbar}>
          <span />
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setView({ kind: "form", subscription: null })}
            data-testid="subscription-new"
          >
            New subscription
          </Button>
        </div>
        {list.length === 0 ? (
          <div className={styles.empty} data-testid="subscriptions-empty">
            {NO_SUBSCRIPTIONS}
          </div>
        ) : (
          <SubscriptionList
            subscriptions={list}
            destinations={destinations.data ?? []}
            sent={sent}
            sending={changes.send.isPending ? (changes.send.variables ?? null) : null}
            onEdit={(subscription) => setView({ kind: "form", subscription })}
            onSend={send}
            onHistory={(subscription) => setView({ kind: "history", subscription })}
            onDelete={(subscription) =>
              changes.remove.mutateAsync(subscription.id).then(
                () => notify.success("Subscription deleted"),
                (error: unknown) =>
                  notify.error("The subscription could not be deleted", messageOf(error)),
              )
            }
            onRunFinished={changes.refresh}
          />
        )}
      </>
    );
  }

  return (
    <Drawer
      title={title}
      open
      onClose={props.onClose}
      size={screens.md ? Math.min(760, window.innerWidth) : window.innerWidth}
      data-testid="subscriptions-drawer"
    >
      {body}
    </Drawer>
  );
}
