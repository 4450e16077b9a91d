import type { DemoCounters, ObjectCounters, PermissionHolder } from "../../api/types";
import { hasPermission, isAdmin } from "../../app/permissions";

export const ASK_ADMIN_TEXT = "Ask an account admin to connect a data source";

export interface OnboardingStep {
  key: "demo" | "data_source" | "query" | "dashboard" | "users";
  title: string;
  /** Where the step's link goes; absent when the user cannot take the step themselves. */
  href?: string;
  done: boolean;
}

/**
 * The welcome steps for this user, each marked done from the organization's object counters.
 * The query step is only offered when the user may create one (`canCreateQuery`: the permission
 * and a data source that is not view-only), never as a way to the no-permission page. Setup's
 * Demo queries and dashboard (`demo`) are not the user's first ones: they do not count.
 */
export function onboardingSteps(
  user: PermissionHolder,
  counters: ObjectCounters | undefined,
  canCreateQuery: boolean,
  demo?: DemoCounters,
): OnboardingStep[] {
  const admin = isAdmin(user);
  const count = (key: keyof ObjectCounters) => counters?.[key] ?? 0;
  const own = (key: keyof DemoCounters) => count(key) - (demo?.[key] ?? 0);
  // With setup's Demo there, the first step shows it and the later ones ask for the user's own.
  const hasDemo = (demo?.dashboards ?? 0) + (demo?.queries ?? 0) > 0;
  const first = hasDemo ? "your own" : "your first";
  const steps: OnboardingStep[] = [];
  if (hasDemo) {
    steps.push({
      key: "demo",
      title: "Explore the Demo dashboard and queries",
      href: (demo?.dashboards ?? 0) > 0 ? "/dashboards?tags=demo" : "/queries?tags=demo",
      // Done once the user has made something of their own: the Demo has served.
      done: own("queries") > 0 || own("dashboards") > 0,
    });
  }
  steps.push(
    admin
      ? {
          key: "data_source",
          title: "Connect a Data Source",
          href: "/data_sources/new",
          done: count("data_sources") > 0,
        }
      : { key: "data_source", title: ASK_ADMIN_TEXT, done: count("data_sources") > 0 },
  );
  if (canCreateQuery) {
    steps.push({
      key: "query",
      title: `Create ${first} Query`,
      href: "/queries/new",
      done: own("queries") > 0,
    });
  }
  if (hasPermission(user, "create_dashboard")) {
    steps.push({
      key: "dashboard",
      title: `Create ${first} Dashboard`,
      href: "/dashboards",
      done: own("dashboards") > 0,
    });
  }
  if (admin) {
    // The first user is the admin themself: done once someone else is in.
    steps.push({
      key: "users",
      title: "Invite your team members",
      href: "/users/new",
      done: count("users") > 1,
    });
  }
  return steps;
}

/** The welcome block stays until every step is done. */
export function showOnboarding(steps: OnboardingStep[]): boolean {
  return steps.some((step) => !step.done);
}
