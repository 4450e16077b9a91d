import { describe, expect, it } from "vitest";
import {
  NAME_REQUIRED,
  NAME_TOO_LONG,
  RECIPIENTS_REQUIRED,
  isEmailAddress,
  newSubscriptionValues,
  splitEmails,
  subscriptionInput,
  validateSubscription,
  type SubscriptionFormValues,
} from "./subscriptionForm";

const valid: SubscriptionFormValues = newSubscriptionValues(
  "Sales",
  { country: "DE" },
  (local) => local,
  "ann@example.com",
);

describe("subscription form checks", () => {
  it("accepts a named subscription with a valid address", () => {
    expect(validateSubscription(valid)).toEqual({});
  });

  it("wants a name of at most 255 characters", () => {
    expect(validateSubscription({ ...valid, name: "   " }).name).toBe(NAME_REQUIRED);
    expect(validateSubscription({ ...valid, name: "x".repeat(256) }).name).toBe(NAME_TOO_LONG);
    expect(validateSubscription({ ...valid, name: "x".repeat(255) }).name).toBeUndefined();
  });

  it("names each address that is not one", () => {
    expect(validateSubscription({ ...valid, emails: ["ann@example.com", "bob"] }).emails).toBe(
      '"bob" is not a valid e-mail address.',
    );
    expect(validateSubscription({ ...valid, emails: ["a@b", "c d@e.org"] }).emails).toBe(
      '"a@b", "c d@e.org" are not valid e-mail addresses.',
    );
  });

  it("wants an address or a destination", () => {
    const none = { ...valid, emails: [], destination_ids: [] };
    expect(validateSubscription(none).recipients).toBe(RECIPIENTS_REQUIRED);
    expect(validateSubscription({ ...none, destination_ids: [3] })).toEqual({});
  });

  it("tells addresses from other text", () => {
    expect(isEmailAddress("ann.lee+reports@mail.example.com")).toBe(true);
    for (const bad of ["ann", "ann@", "@example.com", "ann@example", "a@b.c", "<a@b.org>"])
      expect(isEmailAddress(bad), bad).toBe(false);
  });

  it("splits addresses pasted together, each once", () => {
    expect(splitEmails(["a@x.org; b@x.org, A@X.org", " c@x.org "])).toEqual([
      "a@x.org",
      "b@x.org",
      "c@x.org",
    ]);
  });
});

describe("what a save sends", () => {
  it("starts daily at 09:00 (the reader's time) as a PNG to its author, with the dashboard's values", () => {
    const values = newSubscriptionValues("Sales", { country: "DE" }, () => "08:00", "me@x.org");
    expect(values).toMatchObject({
      name: "Sales report",
      schedule: { interval: 86400, time: "08:00", day_of_week: null, until: null },
      format: "png",
      emails: ["me@x.org"],
      parameters: { country: "DE" },
      active: true,
    });
    expect(newSubscriptionValues("Weekly Report ", {}, (t) => t).name).toBe("Weekly Report");
  });

  it("sends no schedule for Never, and the recipients cleaned", () => {
    const input = subscriptionInput({
      ...valid,
      name: "  Weekly  ",
      schedule: { interval: null, time: null, day_of_week: null, until: null },
      emails: ["a@x.org", "a@x.org"],
      destination_ids: [2, 2, 5],
    });
    expect(input.name).toBe("Weekly");
    expect(input.schedule).toBeNull();
    expect(input.recipients).toEqual({ emails: ["a@x.org"], destination_ids: [2, 5] });
  });
});
