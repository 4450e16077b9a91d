import { describe, expect, it } from "vitest";
import type { ConfigurationSchema } from "@sightline/core";
import {
  fieldNamedIn,
  fieldsFromSchema,
  humanize,
  INVALID_EMAIL_MESSAGE,
  optionsFromValues,
  REQUIRED_MESSAGE,
  TOO_SHORT_MESSAGE,
  validateField,
} from "./schemaFields";

const pg: ConfigurationSchema = {
  type: "object",
  properties: {
    user: { type: "string" },
    password: { type: "string" },
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "number", default: 5432 },
    dbname: { type: "string", title: "Database Name" },
    sslmode: {
      type: "string",
      default: "prefer",
      extendedEnum: [
        { value: "disable", name: "Disable" },
        { value: "prefer", name: "Prefer" },
      ],
    },
    sslrootcertFile: { type: "string", title: "SSL Root Certificate" },
    api_token: { type: "string" },
    read_only: { type: "boolean", default: false },
  },
  order: ["host", "port", "user", "password", "dbname"],
  required: ["dbname"],
  secret: ["password", "sslrootcertFile", "api_token"],
  extra_options: ["sslmode", "sslrootcertFile"],
};

describe("fieldsFromSchema", () => {
  it("orders fields by `order`, then the rest as declared", () => {
    expect(fieldsFromSchema(pg).map((f) => f.name)).toEqual([
      "host",
      "port",
      "user",
      "password",
      "dbname",
      "sslmode",
      "sslrootcertFile",
      "api_token",
      "read_only",
    ]);
  });

  it("picks controls by key and type, titles, required and extra flags", () => {
    const byName = Object.fromEntries(fieldsFromSchema(pg).map((f) => [f.name, f]));
    expect(byName.password!.kind).toBe("password");
    expect(byName.sslrootcertFile!.kind).toBe("file");
    expect(byName.read_only!.kind).toBe("checkbox");
    expect(byName.port!.kind).toBe("number");
    expect(byName.sslmode!.kind).toBe("select");
    expect(byName.sslmode!.options).toEqual([
      { value: "disable", label: "Disable" },
      { value: "prefer", label: "Prefer" },
    ]);
    // A secret text field is masked too.
    expect(byName.api_token!.kind).toBe("password");
    // ...but a secret address is a plain field, so a pasted webhook URL can be read.
    const webhook = fieldsFromSchema({
      type: "object",
      properties: { url: { type: "string" }, password: { type: "string" } },
      secret: ["url", "password"],
    });
    expect(webhook.map((f) => f.kind)).toEqual(["text", "password"]);
    expect(byName.dbname!.title).toBe("Database Name");
    expect(byName.api_token!.title).toBe("Api token");
    expect(byName.dbname!.required).toBe(true);
    expect(byName.user!.required).toBe(false);
    expect(byName.sslmode!.extra).toBe(true);
    expect(byName.host!.extra).toBe(false);
  });

  it("starts from the defaults for a new object and from its options when editing", () => {
    const fresh = Object.fromEntries(fieldsFromSchema(pg).map((f) => [f.name, f.initialValue]));
    expect(fresh).toMatchObject({
      host: "127.0.0.1",
      port: 5432,
      sslmode: "prefer",
      read_only: false,
    });
    const edited = fieldsFromSchema(pg, { dbname: "test", password: "--------" });
    const host = edited.find((f) => f.name === "host")!;
    expect(host.initialValue).toBeUndefined();
    expect(host.hadInitialValue).toBe(false);
    expect(edited.find((f) => f.name === "password")!.initialValue).toBe("--------");
    expect(edited.find((f) => f.name === "password")!.hadInitialValue).toBe(true);
  });
});

describe("optionsFromValues", () => {
  it("sends optional empty fields without an initial value as null and numbers as numbers", () => {
    const fields = fieldsFromSchema(pg);
    const options = optionsFromValues(fields, {
      host: "127.0.0.1",
      port: "5432",
      user: "postgres",
      password: "",
      dbname: "test",
      sslmode: "prefer",
      read_only: false,
    });
    expect(options).toEqual({
      host: "127.0.0.1",
      port: 5432,
      user: "postgres",
      password: null,
      dbname: "test",
      sslmode: "prefer",
      sslrootcertFile: null,
      api_token: null,
      read_only: false,
    });
  });

  it("sends pasted text without the spaces and line breaks around it, passwords as typed", () => {
    const fields = fieldsFromSchema(pg);
    const options = optionsFromValues(fields, {
      host: "  db.example.com \n",
      dbname: "\tsales ",
      password: " secret ",
      api_token: " token ",
      user: " ",
    });
    expect(options.host).toBe("db.example.com");
    expect(options.dbname).toBe("sales");
    expect(options.password).toBe(" secret ");
    expect(options.api_token).toBe(" token ");
    expect(options.user).toBe(" ");
  });

  it("keeps an emptied field that had a value as empty, not null", () => {
    const fields = fieldsFromSchema(pg, { user: "old", dbname: "x" });
    expect(optionsFromValues(fields, { user: "", dbname: "x" }).user).toBe("");
  });
});

describe("validateField", () => {
  const [dbname] = fieldsFromSchema(pg).filter((f) => f.name === "dbname");
  it("gives the spec's generic messages", () => {
    expect(validateField(dbname!, "")).toBe(REQUIRED_MESSAGE);
    expect(validateField(dbname!, undefined)).toBe(REQUIRED_MESSAGE);
    expect(validateField(dbname!, "test")).toBeNull();
    const short = { ...dbname!, minLength: 5 };
    expect(validateField(short, "abc")).toBe(TOO_SHORT_MESSAGE);
    const email = { ...dbname!, kind: "email" as const };
    expect(validateField(email, "nope")).toBe(INVALID_EMAIL_MESSAGE);
    expect(validateField(email, "a@b.co")).toBeNull();
  });
});

describe("humanize", () => {
  it("turns a key into a label", () => {
    expect(humanize("ssl_mode")).toBe("Ssl mode");
  });
});

describe("the field a refusal names", () => {
  const fields = fieldsFromSchema({
    type: "object",
    properties: {
      host: { type: "string" },
      dbname: { type: "string", title: "Database Name" },
      port: { type: "number" },
    },
  });

  it("finds it by title or key, longest title first", () => {
    expect(fieldNamedIn("Database Name must be a string.", fields)).toBe("dbname");
    expect(fieldNamedIn("dbname is required.", fields)).toBe("dbname");
    expect(fieldNamedIn("Port must be a number.", fields)).toBe("port");
    expect(fieldNamedIn("Data source with the name Shop already exists.", fields)).toBe("name");
  });

  it("names none when the message names no field", () => {
    expect(fieldNamedIn("Connection refused.", fields)).toBeNull();
    expect(fieldNamedIn("The hostname is odd", fields)).toBeNull();
  });
});
