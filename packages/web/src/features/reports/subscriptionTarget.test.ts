import { describe, expect, it } from "vitest";
import type { Query } from "@sightline/core";
import type { ReportSubscription } from "../../api/reports";
import { canCarryReport } from "@sightline/core";
import { reportDestinationChoices } from "./reportDestinations";
import {
  noSubscriptionsText,
  targetName,
  targetOwner,
  targetParameters,
  targetSubscriptions,
  targetValues,
  type SubscriptionTarget,
} from "./subscriptionTarget";

const query = {
  id: 7,
  name: "Orders",
  options: {
    parameters: [
      { name: "country", title: "Country", type: "text", value: "Spain" },
      { name: "days", title: "Days", type: "number", value: 7 },
    ],
  },
} as unknown as Query;

const target: SubscriptionTarget = {
  kind: "query",
  query,
  visualization: { id: 31, name: "Chart" },
  values: { country: "Germany" },
};

describe("a query visualization as a subscription's target", () => {
  it("is the query's subscriptions, named after the query and the visualization", () => {
    expect(targetOwner(target)).toEqual({ kind: "query", id: 7 });
    expect(targetName(target)).toBe("Orders: Chart");
    expect(noSubscriptionsText(target)).toContain("this visualization sent");
  });

  it("lists only its visualization's subscriptions", () => {
    const list = [
      { id: 1, visualization_id: 31 },
      { id: 2, visualization_id: 32 },
    ] as ReportSubscription[];
    expect(targetSubscriptions(target, list).map((s) => s.id)).toEqual([1]);
  });

  it("takes the query's parameters with the page's values, else their saved ones", () => {
    const parameters = targetParameters(target);
    expect(parameters.map((p) => [p.name, p.parentQueryId])).toEqual([
      ["country", 7],
      ["days", 7],
    ]);
    expect(targetValues(target, parameters, new URLSearchParams("p_country=France"))).toEqual({
      country: "Germany",
      days: 7,
    });
  });
});

describe("a dashboard as a subscription's target", () => {
  it("names the dashboard and reads the values from the address", () => {
    const dashboard: SubscriptionTarget = {
      kind: "dashboard",
      dashboard: { id: 3, name: "Sales", widgets: [], options: {} } as never,
    };
    expect(targetOwner(dashboard)).toEqual({ kind: "dashboard", id: 3 });
    expect(targetName(dashboard)).toBe("Sales");
    expect(noSubscriptionsText(dashboard)).toContain("this dashboard sent");
    expect(targetParameters(dashboard)).toEqual([]);
  });
});

describe("report destinations", () => {
  const all = [
    { id: 1, name: "Chat", type: "slack" },
    { id: 2, name: "Pager", type: "pagerduty" },
    { id: 3, name: "Hook", type: "webhook" },
  ] as never[];

  it("keeps those that can carry a report, and one already chosen that cannot", () => {
    expect(canCarryReport("microsoft_teams_webhook")).toBe(true);
    expect(canCarryReport("pagerduty")).toBe(false);
    expect(reportDestinationChoices(all, []).map((d: { id: number }) => d.id)).toEqual([1, 3]);
    expect(reportDestinationChoices(all, [2]).map((d: { id: number }) => d.id)).toEqual([1, 2, 3]);
  });
});
