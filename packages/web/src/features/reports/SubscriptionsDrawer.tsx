// "Subscriptions" of the dashboard's menu and of the query page's menu (issue 28): the report
// subscriptions of the dashboard, or of the query's shown visualization, in a side drawer, with
// the form to create or edit one and each one's run history.
import { PlusOutlined } from "@ant-design/icons";
import { Alert, Button, Drawer, Grid, Skeleton } from "antd";
import { useMemo, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { isApiError } from "../../api/errors";
import type { ReportRun, ReportSubscription } from "../../api/reports";
import { notify } from "../../app/notifications";
import { isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { localToUtc } from "../queries/scheduleRules";
import dayjs from "dayjs";
import { reportDestinationChoices } from "./reportDestinations";
import { RunHistory } from "./RunHistory";
import { SubscriptionForm } from "./SubscriptionForm";
import { SubscriptionList } from "./SubscriptionList";
import { newSubscriptionValues, subscriptionInput, subscriptionValues } from "./subscriptionForm";
import {
  noSubscriptionsText,
  targetName,
  targetOwner,
  targetParameters,
  targetSubscriptions,
  targetValues,
  type SubscriptionTarget,
} from "./subscriptionTarget";
import { useReportDestinations, useSubscriptionChanges, useSubscriptions } from "./useReports";
import styles from "./Subscriptions.module.css";

export const SUBSCRIPTIONS_TITLE = "Subscriptions";

/** What a new subscription needs, said where there is none yet. */
export const SUBSCRIPTION_NEEDS_TEXT =
  "A subscription needs a name, a schedule, a format (image, PDF, CSV, XLSX or a link) and at least one recipient: an e-mail address or an alert destination.";

type View =
  | { kind: "list" }
  | { kind: "form"; subscription: ReportSubscription | null }
  | { kind: "history"; subscription: ReportSubscription };

const messageOf = (error: unknown) =>
  isApiError(error) || error instanceof Error ? error.message : String(error);

/** A save's refusal in words: one deleted meanwhile (another tab) says so. */
const saveErrorOf = (error: unknown) =>
  isApiError(error) && error.status === 404
    ? "This subscription no longer exists: it was deleted, maybe in another tab. Cancel to see the list."
    : messageOf(error);

export function SubscriptionsDrawer(props: { target: SubscriptionTarget; onClose: () => void }) {
  const { target } = props;
  const owner = targetOwner(target);
  const session = useSession();
  const screens = Grid.useBreakpoint();
  const [view, setView] = useState<View>({ kind: "list" });
  const [sent, setSent] = useState<ReadonlyMap<number, ReportRun>>(new Map());
  const subscriptions = useSubscriptions(owner);
  const destinations = useReportDestinations(true);
  const changes = useSubscriptionChanges(owner);
  // Set at once on Save (the mutation's own pending state shows a moment later): a double
  // click or Enter pressed twice saves once.
  const saving = useRef(false);

  // The report's parameter values start as the page's current ones (a dashboard's address, the
  // query page's applied values).
  const [search] = useSearchParams();
  const parameters = useMemo(() => targetParameters(target), [target]);
  const currentValues = useMemo(
    () => targetValues(target, parameters, search),
    [target, parameters, search],
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
          targetName(target),
          currentValues,
          (local) => localToUtc(local, dayjs().utcOffset()),
          session.user.email,
        );
    body = (
      <SubscriptionForm
        initial={initial}
        parameters={parameters}
        single={target.kind === "query"}
        saving={changes.save.isPending}
        saveError={changes.save.error ? saveErrorOf(changes.save.error) : null}
        onCancel={() => {
          changes.save.reset();
          setView({ kind: "list" });
        }}
        onSave={(values) => {
          if (saving.current) return;
          saving.current = true;
          changes.save.mutate(
            {
              id: view.subscription?.id ?? null,
              input:
                target.kind === "query" && !view.subscription
                  ? { ...subscriptionInput(values), visualization_id: target.visualization.id }
                  : subscriptionInput(values),
            },
            {
              onSuccess: () => {
                notify.success(view.subscription ? "Subscription saved" : "Subscription created");
                setView({ kind: "list" });
              },
              onSettled: () => {
                saving.current = false;
              },
            },
          );
        }}
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
    const list = targetSubscriptions(target, subscriptions.data ?? []);
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
            <p>{noSubscriptionsText(target)}</p>
            <p>{SUBSCRIPTION_NEEDS_TEXT}</p>
            {destinations.data &&
              reportDestinationChoices(destinations.data, []).length === 0 &&
              (isAdmin(session.user) ? (
                <p data-testid="subscriptions-no-destinations">
                  No alert destinations yet.{" "}
                  <Link to="/destinations/new">Create a destination</Link> to send reports to Slack,
                  Teams, a webhook and others.
                </p>
              ) : (
                <p data-testid="subscriptions-no-destinations">
                  No alert destinations yet: ask an admin to create one for Slack, Teams or a
                  webhook.
                </p>
              ))}
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
