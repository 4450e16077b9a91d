// The reports area's server state (issue 28): a dashboard's subscriptions and their changes,
// the destinations a report can go to, and a run followed until it is over.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { listDestinations } from "../../api/destinations";
import {
  createSubscription,
  deleteSubscription,
  getReportRun,
  isRunFinished,
  listReportRuns,
  listSubscriptions,
  saveSubscription,
  sendSubscriptionNow,
  type ReportOwner,
  type ReportRun,
  type ReportSubscriptionInput,
} from "../../api/reports";

/** How often a run under way is read again. */
export const RUN_POLL_MS = 1500;

const subscriptionsKey = (owner: ReportOwner) => ["report-subscriptions", owner.kind, owner.id];

export function useSubscriptions(owner: ReportOwner, enabled = true) {
  return useQuery({
    queryKey: subscriptionsKey(owner),
    queryFn: () => listSubscriptions(owner),
    enabled,
    staleTime: 0,
  });
}

/**
 * Create (id null) or save, delete and send: each refreshes the list once done. Offline, the call
 * fails and says to check the connection, the form keeping what was typed (App.tsx's networkMode).
 */
export function useSubscriptionChanges(owner: ReportOwner) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: subscriptionsKey(owner) });
  const save = useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: ReportSubscriptionInput }) =>
      id === null ? createSubscription(owner, input) : saveSubscription(id, input),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: deleteSubscription,
    onSuccess: refresh,
  });
  const send = useMutation({
    mutationFn: sendSubscriptionNow,
    onSuccess: refresh,
  });
  return { save, remove, send, refresh };
}

/** The destinations a report may go to; an error (no right to list them) leaves none. */
export function useReportDestinations(enabled: boolean) {
  return useQuery({
    queryKey: ["destinations"],
    queryFn: listDestinations,
    enabled,
    staleTime: 60_000,
  });
}

/**
 * A run read again every RUN_POLL_MS until it is sent, skipped or failed (Send now's outcome,
 * and a history row still under way). `initial` is the run as last known.
 */
export function useFollowedRun(initial: ReportRun | null, onFinished?: (run: ReportRun) => void) {
  return useQuery({
    queryKey: ["report-run", initial?.id],
    queryFn: async () => {
      const run = await getReportRun(initial!.id);
      if (isRunFinished(run)) onFinished?.(run);
      return run;
    },
    enabled: !!initial,
    initialData: initial ?? undefined,
    initialDataUpdatedAt: 0,
    refetchInterval: (query) =>
      query.state.data && isRunFinished(query.state.data) ? false : RUN_POLL_MS,
    retry: 2,
  });
}

export function useReportRuns(subscriptionId: number, page: number, pageSize: number) {
  return useQuery({
    queryKey: ["report-runs", subscriptionId, page, pageSize],
    queryFn: () => listReportRuns(subscriptionId, page, pageSize),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.results.some((run) => !isRunFinished(run)) ? RUN_POLL_MS * 2 : false,
  });
}
