// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import type { DataSource, ParameterDefinition, Query, Visualization } from "@sightline/core";
import {
  DEFAULT_QUERY_NAME,
  newQuery,
  pickDataSource,
  publishesOnSave,
  saveBody,
  withoutVisualization,
  withParameter,
  withSaved,
  withText,
  withVisualization,
} from "./queryDocument";
import { writePreference } from "./localPreferences";

afterEach(() => window.localStorage.clear());

const source = (id: number, view_only = false) => ({ id, view_only }) as DataSource;
const number = (name: string): ParameterDefinition => ({ name, title: name, type: "number" });
const visualization = (id: number, name = `v${id}`) => ({ id, name }) as Visualization;

describe("a new query", () => {
  it("is a draft named New Query whose auto limit is the one last chosen", () => {
    expect(newQuery()).toMatchObject({ id: 0, name: "New Query", is_draft: true, query: "" });
    expect(newQuery().options.apply_auto_limit).toBe(true);
    writePreference("applyAutoLimit", false);
    expect(newQuery().options.apply_auto_limit).toBe(false);
    expect(DEFAULT_QUERY_NAME).toBe("New Query");
  });
});

describe("pickDataSource", () => {
  const sources = [source(1, true), source(2), source(3)];
  it("keeps the query's own data source", () => {
    expect(pickDataSource({ ...newQuery(), data_source_id: 1 }, sources)).toBe(1);
  });
  it("takes the last one used when it may still be used, else the first usable one", () => {
    expect(pickDataSource(newQuery(), sources)).toBe(2);
    writePreference("lastSelectedDataSourceId", 3);
    expect(pickDataSource(newQuery(), sources)).toBe(3);
    writePreference("lastSelectedDataSourceId", 1);
    expect(pickDataSource(newQuery(), sources)).toBe(2);
    expect(pickDataSource(newQuery(), [source(1, true)])).toBeNull();
  });
});

describe("withText", () => {
  it("keeps the parameter list (the same array) when the text names the same ones", () => {
    const query = { ...newQuery(), options: { parameters: [number("n")] } };
    const next = withText(query, "select {{ n }} + 1");
    expect(next.query).toBe("select {{ n }} + 1");
    expect(next.options).toBe(query.options);
  });
  it("adds names new to the text as text parameters, which make the query unsafe", () => {
    const query = { ...newQuery(), options: { parameters: [number("n")] } };
    const next = withText(query, "select {{ n }}, '{{ who }}'");
    expect(next.options.parameters!.map((p) => [p.name, p.type])).toEqual([
      ["n", "number"],
      ["who", "text"],
    ]);
    expect(next.is_safe).toBe(false);
    expect(withText(next, "select 1").options.parameters).toEqual([]);
    expect(withText(next, "select 1").is_safe).toBe(true);
  });
});

describe("withParameter", () => {
  it("appends a new parameter and asks for its placeholder unless the text names it", () => {
    const added = withParameter(newQuery(), number("n"));
    expect(added.query.options.parameters).toEqual([number("n")]);
    expect(added.placeholder).toBe("{{ n }}");
    const named = withParameter({ ...newQuery(), query: "select {{ n }}" }, number("n"));
    expect(named.placeholder).toBeNull();
  });
  it("replaces the edited parameter, found by its name before the edit", () => {
    const query = { ...newQuery(), options: { parameters: [number("a"), number("b")] } };
    const edited = withParameter(query, { name: "c", type: "text" }, "a");
    expect(edited.query.options.parameters!.map((p) => p.name)).toEqual(["c", "b"]);
    expect(edited.query.is_safe).toBe(false);
    expect(edited.placeholder).toBeNull();
  });
});

describe("publishesOnSave", () => {
  const draft = { ...newQuery(), id: 5, name: "Sales" };
  const on = { isNew: false, autoPublish: true };
  it("publishes a saved draft renamed away from the default name", () => {
    expect(publishesOnSave(draft, { name: "Sales" }, on)).toBe(true);
  });
  it("does not otherwise", () => {
    expect(publishesOnSave(draft, {}, on)).toBe(false);
    expect(publishesOnSave(draft, { name: "Sales" }, { ...on, autoPublish: false })).toBe(false);
    expect(publishesOnSave(draft, { name: "Sales" }, { ...on, isNew: true })).toBe(false);
    const unnamed = { ...draft, name: DEFAULT_QUERY_NAME };
    expect(publishesOnSave(unnamed, { name: DEFAULT_QUERY_NAME }, on)).toBe(false);
    expect(publishesOnSave({ ...draft, is_draft: false }, { name: "Sales" }, on)).toBe(false);
  });
});

describe("saving", () => {
  it("sends the editable fields only", () => {
    const query: Query = { ...newQuery(), id: 7, data_source_id: 2, tags: ["a"] };
    expect(Object.keys(saveBody(query)).sort()).toEqual([
      "data_source_id",
      "description",
      "is_draft",
      "latest_query_data_id",
      "name",
      "options",
      "query",
      "schedule",
      "tags",
    ]);
    expect(saveBody(query)).toMatchObject({ data_source_id: 2, tags: ["a"], name: "New Query" });
  });
  it("keeps text (and its parameters) typed while the save was under way", () => {
    const current = { ...withText(newQuery(), "select '{{ x }}'"), version: 1 };
    const saved = { ...newQuery(), id: 9, version: 2, query: "select 1", is_safe: true };
    const next = withSaved(current, saved);
    expect(next).toMatchObject({ id: 9, version: 2, query: "select '{{ x }}'", is_safe: false });
    expect(next.options).toBe(current.options);
  });
});

describe("visualizations", () => {
  it("are added, updated in place and removed", () => {
    const query = { ...newQuery(), visualizations: [visualization(1), visualization(2)] };
    const added = withVisualization(query, visualization(3));
    expect(added.visualizations!.map((v) => v.id)).toEqual([1, 2, 3]);
    const renamed = withVisualization(added, visualization(1, "Chart"));
    expect(renamed.visualizations!.map((v) => v.name)).toEqual(["Chart", "v2", "v3"]);
    expect(withoutVisualization(renamed, 2).visualizations!.map((v) => v.id)).toEqual([1, 3]);
  });
});
