// The view page's Destinations panel (spec 3 §2): the alert's destinations, the caller's own
// e-mail switch, and 'Add Existing Alert Destinations'; each destination's last failed delivery,
// and "Send test notification" for the alert's owner and admins (issue 25).
import { CloseOutlined, MailOutlined, PlusOutlined, SendOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert as Banner, Button, Skeleton, Switch, Tooltip, Typography } from "antd";
import { useState } from "react";
import {
  listSubscriptions,
  subscribe,
  unsubscribe,
  type AlertSubscription,
} from "../../api/alerts";
import { listDestinations } from "../../api/destinations";
import { notify } from "../../app/notifications";
import { isAdmin } from "../../app/permissions";
import { useSession } from "../../app/session";
import { DestinationLogo } from "../destinations/DestinationLogo";
import { testSubscription, type DestinationWithFailure } from "../destinations/deliveries";
import { LastFailure } from "../destinations/LastFailure";
import {
  TEST_NOTIFICATION,
  TestOutcomeMessage,
  useTestNotification,
} from "../destinations/TestNotification";
import { DESTINATIONS_KEY } from "../destinations/queryKeys";
import { AddDestinationsDialog } from "./AddDestinationsDialog";
import { subscriptionsKey } from "./queryKeys";
import styles from "./alerts.module.css";

export const MAIL_NOT_CONFIGURED =
  "Your mail server isn't configured correctly, and is needed for this feature to work.";

interface AlertDestinationsProps {
  alertId: number;
  /** The alert's owner or an admin: may send test notifications. */
  canTest: boolean;
}

export function AlertDestinations({ alertId, canTest }: AlertDestinationsProps) {
  const session = useSession();
  const me = session.user;
  const admin = isAdmin(me);
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState(false);
  const subscriptions = useQuery({
    queryKey: subscriptionsKey(alertId),
    queryFn: () => listSubscriptions(alertId),
  });
  const destinations = useQuery({ queryKey: DESTINATIONS_KEY, queryFn: listDestinations });
  const test = useTestNotification();
  const refresh = () => queryClient.invalidateQueries({ queryKey: subscriptionsKey(alertId) });

  const list = subscriptions.data ?? [];
  const withDestination = list.filter((s) => s.destination);
  const ownMail = list.find((s) => !s.destination && s.user?.id === me.id);
  const used = new Set(withDestination.map((s) => s.destination!.id));
  const available = (destinations.data ?? []).filter((d) => !used.has(d.id));

  const remove = async (subscription: AlertSubscription) => {
    setBusy(true);
    try {
      await unsubscribe(alertId, subscription.id);
    } catch {
      notify.error("Failed unsubscribing.");
    }
    await refresh();
    setBusy(false);
  };

  const subscribeSelf = async () => {
    setBusy(true);
    try {
      await subscribe(alertId);
      notify.success("Subscribed.");
    } catch {
      notify.error("Failed saving subscription.");
    }
    await refresh();
    setBusy(false);
  };

  const addDestinations = async (ids: number[]) => {
    const results = await Promise.allSettled(ids.map((id) => subscribe(alertId, id)));
    if (results.some((r) => r.status === "rejected")) {
      notify.error("Failed to save some of selected items.");
    } else {
      notify.success("Subscribed.");
    }
    await refresh();
  };

  const testButton = (subscription: AlertSubscription, name: string) =>
    canTest && (
      <Tooltip title={TEST_NOTIFICATION}>
        <Button
          type="text"
          size="small"
          icon={<SendOutlined />}
          aria-label={`${TEST_NOTIFICATION} to ${name}`}
          loading={test.sending}
          onClick={() => void test.run(() => testSubscription(alertId, subscription.id))}
        />
      </Tooltip>
    );

  let body;
  if (subscriptions.isError) {
    body = <Banner type="error" showIcon title={subscriptions.error.message} />;
  } else if (subscriptions.isPending) {
    body = <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  } else {
    body = (
      <div data-testid="alert-destinations">
        {session.client_config.mailSettingsMissing ? (
          <Banner type="warning" showIcon title={MAIL_NOT_CONFIGURED} style={{ marginBottom: 8 }} />
        ) : (
          <div className={styles.destination}>
            <MailOutlined style={{ fontSize: 18 }} aria-hidden />
            <span className={styles.destinationName}>{me.email}</span>
            {ownMail && testButton(ownMail, me.email)}
            <Switch
              size="small"
              aria-label="Notify me by e-mail"
              checked={!!ownMail}
              disabled={busy}
              onChange={(on) => void (on ? subscribeSelf() : ownMail && remove(ownMail))}
            />
          </div>
        )}
        {withDestination.map((s) => (
          <div key={s.id} data-testid={`subscription-${s.destination!.id}`}>
            <div className={styles.destination}>
              <DestinationLogo type={s.destination!.type} size={24} />
              <span className={styles.destinationName}>{s.destination!.name}</span>
              {testButton(s, s.destination!.name)}
              {(admin || s.user?.id === me.id) && (
                <Tooltip title="Remove">
                  <Button
                    type="text"
                    size="small"
                    icon={<CloseOutlined />}
                    aria-label={`Remove ${s.destination!.name}`}
                    disabled={busy}
                    onClick={() => void remove(s)}
                  />
                </Tooltip>
              )}
            </div>
            <LastFailure destination={s.destination as DestinationWithFailure} compact />
          </div>
        ))}
        <TestOutcomeMessage outcome={test.outcome} />
      </div>
    );
  }

  return (
    <section className={styles.card}>
      <div className={styles.inline} style={{ justifyContent: "space-between", marginBottom: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          Destinations
        </Typography.Title>
        <Button
          size="small"
          icon={<PlusOutlined />}
          onClick={() => setAdding(true)}
          data-testid="add-destinations"
        >
          Add
        </Button>
      </div>
      {body}
      <AddDestinationsDialog
        open={adding}
        destinations={available}
        onClose={() => setAdding(false)}
        onSave={addDestinations}
      />
    </section>
  );
}
