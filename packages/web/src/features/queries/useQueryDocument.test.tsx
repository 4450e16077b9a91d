// @vitest-environment jsdom
import { act, cleanup, fireEvent, renderHook, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Query } from "@sightline/core";
import { stubMatchMedia } from "../../testing/matchMedia";
import { json } from "../../testing/responses";
import { newQuery } from "./queryDocument";
import { appProviders, sessionAnswer } from "./testAppProviders";
import { CONFLICT_MESSAGE, useQueryDocument, type QueryDocument } from "./useQueryDocument";

interface Sent {
  path: string;
  body: Record<string, unknown>;
}
let sent: Sent[];
let saveAnswers: Response[];
let permissions: string[];

beforeEach(() => {
  sent = [];
  saveAnswers = [];
  permissions = ["create_query", "edit_query"];
  // The server is not part of this test: a fake fetch plays api/session and the query's save.
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    const path = new URL(url, "http://localhost").pathname;
    if (path === "/api/session") return sessionAnswer(permissions);
    const body = JSON.parse(String(init.body ?? "{}")) as Record<string, unknown>;
    sent.push({ path, body });
    return saveAnswers.shift() ?? json({ message: "no answer" }, 500);
  });
  stubMatchMedia();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const saved: Query = {
  ...newQuery(),
  id: 5,
  name: "New Query",
  query: "select 1",
  version: 3,
  data_source_id: 1,
  user: { id: 2, name: "Bob" } as Query["user"],
  can_edit: true,
};

async function renderDocument(initial: Query) {
  const editor = { current: null };
  const hook = renderHook(
    () => useQueryDocument({ initial, dataSources: [], editing: true, editor }),
    appProviders("/queries/5/source"),
  );
  await waitFor(() => expect(hook.result.current).not.toBeNull());
  return () => hook.result.current as QueryDocument;
}

describe("saving the query document", () => {
  it("asks to overwrite after a conflict, and then saves without the version check", async () => {
    const doc = await renderDocument(saved);
    saveAnswers = [json({ message: "conflict" }, 409), json({ ...saved, version: 5 })];
    await act(async () => void (await doc().save({ description: "mine" })));
    expect(await screen.findByText(new RegExp(CONFLICT_MESSAGE))).toBeTruthy();
    expect(sent[0]).toMatchObject({ path: "/api/queries/5", body: { version: 3, id: 5 } });
    fireEvent.click(screen.getByRole("button", { name: "Overwrite" }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.body).toMatchObject({ description: "mine", id: 5 });
    expect(sent[1]!.body.version).toBeUndefined();
    await waitFor(() => expect(doc().query.version).toBe(5));
    expect(doc().dirty).toBe(false);
  });

  it("offers to compare with the saved version after a conflict, keeping what was sent", async () => {
    const doc = await renderDocument(saved);
    saveAnswers = [json({ message: "conflict" }, 409), json({ ...saved, version: 6 })];
    await act(async () => void (await doc().save({ description: "mine" })));
    fireEvent.click(await screen.findByTestId("compare-with-saved"));
    await waitFor(() => expect(doc().conflict).not.toBeNull());
    expect(doc().conflict!.mine).toMatchObject({ id: 5, description: "mine" });
    // Overwrite from the comparison saves without the version check.
    act(() => doc().conflict!.overwrite());
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.body.version).toBeUndefined();
    act(() => doc().closeConflict());
    expect(doc().conflict).toBeNull();
  });

  it("takes a restored query as saved: its text, its version for the next save, nothing dirty", async () => {
    const doc = await renderDocument(saved);
    act(() => doc().update({ description: "typed" }));
    act(() => doc().replaceSaved({ ...saved, query: "select 'restored'", version: 9 }));
    expect(doc().query.query).toBe("select 'restored'");
    expect(doc().dirty).toBe(false);
    expect(doc().savedVersion()).toBe(9);
    expect(doc().hasUnsavedChanges()).toBe(false);
    saveAnswers = [json({ ...saved, version: 10 })];
    await act(async () => void (await doc().save({ name: "After" })));
    expect(sent[0]!.body.version).toBe(9);
  });

  it("publishes a draft renamed away from New Query, and says so", async () => {
    const doc = await renderDocument(saved);
    saveAnswers = [json({ ...saved, name: "Sales", is_draft: false, version: 4 })];
    act(() => doc().rename("Sales"));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body).toMatchObject({ name: "Sales", is_draft: false });
    expect(await screen.findByText("Query saved and published")).toBeTruthy();
    await waitFor(() => expect(doc().query).toMatchObject({ name: "Sales", is_draft: false }));
  });

  it("keeps a change waiting for Save, and a failed save says so and stays dirty", async () => {
    const doc = await renderDocument(saved);
    act(() => doc().update({ description: "later" }));
    expect(doc().dirty).toBe(true);
    expect(sent).toHaveLength(0);
    saveAnswers = [json({ message: "down" }, 500)];
    let answer: Query | null = saved;
    await act(async () => void (answer = await doc().save()));
    expect(answer).toBeNull();
    expect(await screen.findByText("Query could not be saved")).toBeTruthy();
    expect(doc().dirty).toBe(true);
    expect(doc().saving).toBe(false);
  });

  it("says why a save was refused", async () => {
    const doc = await renderDocument(saved);
    act(() => doc().update({ query: "url: http://169.254.169.254/" }));
    saveAnswers = [
      json({ message: "The query's URL cannot be fetched: 169.254.169.254 is refused." }, 400),
    ];
    await act(async () => void (await doc().save()));
    expect(await screen.findByText("Query could not be saved")).toBeTruthy();
    expect(
      await screen.findByText("The query's URL cannot be fetched: 169.254.169.254 is refused."),
    ).toBeTruthy();
    expect(doc().dirty).toBe(true);
  });

  it("sends nothing for a user who may not edit the query", async () => {
    permissions = ["create_query"];
    const doc = await renderDocument({ ...saved, can_edit: false });
    expect(doc().canEdit).toBe(false);
    let answer: Query | null = saved;
    await act(async () => void (answer = await doc().save({ name: "x" })));
    expect(answer).toBeNull();
    expect(sent).toHaveLength(0);
  });
});
