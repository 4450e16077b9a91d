import { describe, expect, it } from "vitest";
import { ASK_ADMIN_TEXT, onboardingSteps, showOnboarding } from "./onboarding";

const counters = { data_sources: 0, queries: 0, alerts: 0, dashboards: 0, users: 1 };

describe("onboarding steps", () => {
  it("gives admins linked steps completed from the counters", () => {
    const steps = onboardingSteps(
      { permissions: ["admin"] },
      { ...counters, data_sources: 1 },
      true,
    );
    expect(steps.map((s) => [s.href, s.done])).toEqual([
      ["/data_sources/new", true],
      ["/queries/new", false],
      ["/dashboards", false],
      ["/users/new", false],
    ]);
    expect(showOnboarding(steps)).toBe(true);
  });

  it("does not count setup's Demo queries and dashboard as the user's first ones", () => {
    const user = { permissions: ["create_query", "create_dashboard", "view_query"] };
    const withDemo = { ...counters, data_sources: 1, queries: 4, dashboards: 1 };
    const demo = { queries: 4, dashboards: 1 };
    const steps = onboardingSteps(user, withDemo, true, demo);
    expect(steps.map((s) => [s.key, s.done])).toEqual([
      ["demo", false],
      ["data_source", true],
      ["query", false],
      ["dashboard", false],
    ]);
    // The Demo is offered first, and the later steps ask for the user's own, not a "first".
    expect(steps[0]).toMatchObject({
      title: "Explore the Demo dashboard and queries",
      href: "/dashboards?tags=demo",
    });
    expect(steps.map((s) => s.title)).toContain("Create your own Query");
    expect(steps.map((s) => s.title)).toContain("Create your own Dashboard");
    const ownToo = { ...withDemo, queries: 5, dashboards: 2 };
    expect(onboardingSteps(user, ownToo, true, demo).every((s) => s.done)).toBe(true);
  });

  it("hides the welcome block once everything is done", () => {
    const done = { data_sources: 2, queries: 3, alerts: 0, dashboards: 1, users: 2 };
    expect(showOnboarding(onboardingSteps({ permissions: ["admin"] }, done, true))).toBe(false);
  });

  it("tells non-admins to ask an admin for a data source", () => {
    const steps = onboardingSteps({ permissions: ["create_query", "view_query"] }, counters, true);
    expect(steps[0]).toEqual({ key: "data_source", title: ASK_ADMIN_TEXT, done: false });
    expect(steps.map((s) => s.key)).toEqual(["data_source", "query"]);
    expect(ASK_ADMIN_TEXT).toBe("Ask an account admin to connect a data source");
  });

  it("offers no query step to a user who may not create one (view-only data sources)", () => {
    const steps = onboardingSteps(
      { permissions: ["create_query", "create_dashboard", "view_query"] },
      { ...counters, data_sources: 1 },
      false,
    );
    expect(steps.map((s) => s.key)).toEqual(["data_source", "dashboard"]);
  });

  it("treats unknown counters as nothing done", () => {
    expect(onboardingSteps({ permissions: ["admin"] }, undefined, true).every((s) => !s.done)).toBe(
      true,
    );
  });
});
