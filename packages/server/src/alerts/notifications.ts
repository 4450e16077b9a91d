import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { AlertState } from "@sightline/core";
import type { Keys } from "../auth/secretKey";
import type { Config } from "../config";
import { withoutSecrets } from "../destinations/delivery";
import { readDestinationOptions } from "../destinations/options";
import { email } from "../destinations/email";
import { findDestinationType } from "../destinations/registry";
import type {
  AlertNotification,
  DeliveryTools,
  DestinationOptions,
  DestinationType,
} from "../destinations/types";
import type { Mailer } from "../mail";
import { createOutboundClient } from "../outbound/client";
import { presentCompactAlert } from "../presenters/alerts";
import { listSubscriptionsOf, type Alert } from "../store/alerts";
import { destinationsByIds, recordDestinationFailure } from "../store/destinations";
import type { DB } from "../store/schema";
import type { Query } from "../store/queries";
import { usersByIds } from "../store/users";
import { now } from "../store/values";
import {
  defaultEmailBody,
  renderAlertTexts,
  renderEmailBody,
  templateVariables,
  type AlertResultData,
} from "./templates";
import { recordAlertDelivery } from "../metrics/registry";

/**
 * Sending an alert's notifications to its subscriptions (api-platform.md §9.5): each one at the
 * same time as the others, in the background, retried with backoff; a delivery that still fails
 * is logged and remembered on its destination, and never changes the alert.
 */

export interface NotifierDeps {
  db: Kysely<DB>;
  config: Pick<Config, "baseUrl" | "outboundAllowedRanges">;
  keys: Keys;
  mailer: Mailer;
  log: Pick<FastifyBaseLogger, "warn" | "error">;
  /** Replacements for tests (e.g. the fixed ChatWork and PagerDuty addresses). */
  tools?: Partial<DeliveryTools>;
  /** Waits before the second and third tries. */
  retryDelaysMs?: readonly number[];
}

/** One alert's change of state to tell its subscribers about. */
export interface AlertNotice {
  /** The alert as stored after the evaluation. */
  alert: Alert;
  query: Query;
  newState: AlertState;
  data: AlertResultData | null;
  /** Execution metadata, `{}` for a manual evaluation. */
  metadata: Record<string, unknown>;
}

export interface Notifier {
  /** Starts sending these alerts' notifications; returns at once. */
  dispatch(notices: AlertNotice[]): void;
  /** Resolves when every notification started so far is delivered or given up. */
  idle(): Promise<void>;
}

const DEFAULT_RETRY_DELAYS_MS = [1_000, 3_000];

interface Target {
  destinationId: number | null;
  type: DestinationType;
  options: DestinationOptions;
}

export function createNotifier(deps: NotifierDeps): Notifier {
  const tools: DeliveryTools = {
    outbound: createOutboundClient({ allowedRanges: deps.config.outboundAllowedRanges }),
    mailer: deps.mailer,
    ...deps.tools,
  };
  const delays = deps.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const pending = new Set<Promise<void>>();

  /**
   * Where each alert's subscriptions send: a destination, or an e-mail to the subscriber. Read
   * for all the alerts at once; each destination's options are decrypted once.
   */
  async function targetsOf(alertIds: number[]): Promise<Map<number, Target[]>> {
    const subscriptions = await listSubscriptionsOf(deps.db, alertIds);
    const destinations = await destinationsByIds(
      deps.db,
      subscriptions.map((s) => s.destination_id),
    );
    const users = await usersByIds(
      deps.db,
      subscriptions.filter((s) => s.destination_id === null).map((s) => s.user_id),
    );
    const resolved = new Map<number, Target | null>();
    const destinationTarget = (id: number): Target | null => {
      if (resolved.has(id)) return resolved.get(id)!;
      const destination = destinations.get(id);
      const type = destination ? findDestinationType(destination.type) : null;
      if (destination && !type) {
        deps.log.warn(
          { destination_id: destination.id, type: destination.type },
          "alert destination of an unknown type skipped",
        );
      }
      let target: Target | null = null;
      if (destination && type) {
        try {
          target = { destinationId: id, type, options: readDestinationOptions(deps, destination) };
        } catch {
          // Options written with another secret key: this destination only is skipped.
          deps.log.warn({ destination_id: id }, "alert destination options cannot be read");
        }
      }
      resolved.set(id, target);
      return target;
    };
    const out = new Map<number, Target[]>();
    for (const s of subscriptions) {
      let target: Target | null = null;
      if (s.destination_id !== null) target = destinationTarget(s.destination_id);
      else {
        const user = users.get(s.user_id);
        if (user && user.disabled_at === null) {
          target = { destinationId: null, type: email, options: { addresses: user.email } };
        }
      }
      if (target) out.set(s.alert_id, [...(out.get(s.alert_id) ?? []), target]);
    }
    return out;
  }

  function message(notice: AlertNotice): AlertNotification {
    const host = deps.config.baseUrl.replace(/\/+$/, "");
    const variables = templateVariables(notice.alert, notice.query, notice.data, host);
    const { subject, body } = renderAlertTexts(notice.alert.options, variables);
    let emailBody: string | null = null;
    return {
      alert: presentCompactAlert(notice.alert),
      query: { id: notice.query.id, name: notice.query.name, query: notice.query.query },
      newState: notice.newState,
      subject,
      body,
      emailBody: renderEmailBody(notice.alert.options, variables),
      // Built only when an e-mail goes out: it holds the whole result as a table.
      get defaultEmailBody() {
        emailBody ??= defaultEmailBody(variables, notice.data);
        return emailBody;
      },
      host,
      metadata: notice.metadata,
    };
  }

  async function deliver(target: Target, notification: AlertNotification): Promise<void> {
    let reason = "";
    for (let attempt = 0; attempt <= delays.length; attempt++) {
      if (attempt > 0) await sleep(delays[attempt - 1]!);
      try {
        await target.type.send(notification, target.options, tools);
        recordAlertDelivery(target.type.type, "sent");
        return;
      } catch (error) {
        reason = withoutSecrets(errorText(error), target.type, target.options);
      }
    }
    deps.log.warn(
      {
        alert_id: notification.alert.id,
        destination_id: target.destinationId,
        destination_type: target.type.type,
        reason,
      },
      "alert notification failed",
    );
    recordAlertDelivery(target.type.type, "failed");
    if (target.destinationId !== null) {
      await recordDestinationFailure(deps.db, target.destinationId, reason, now());
    }
  }

  async function send(notices: AlertNotice[]): Promise<void> {
    // Off the caller's path (the worker) before any work is done.
    await Promise.resolve();
    const targets = await targetsOf(notices.map((n) => n.alert.id));
    await Promise.all(
      notices.flatMap((notice) => {
        const all = targets.get(notice.alert.id) ?? [];
        if (all.length === 0) return [];
        let notification: AlertNotification;
        try {
          notification = message(notice);
        } catch (error) {
          // A template stored before templates were checked: this alert only is skipped.
          deps.log.warn(
            { alert_id: notice.alert.id, reason: errorText(error) },
            "alert notification could not be written",
          );
          return [];
        }
        return all.map((target) => deliver(target, notification));
      }),
    );
  }

  return {
    dispatch(notices) {
      const task = send(notices)
        .catch((error: unknown) =>
          deps.log.error(
            { alert_ids: notices.map((n) => n.alert.id), reason: errorText(error) },
            "alert notifications could not be sent",
          ),
        )
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
