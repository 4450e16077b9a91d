import { describe, expect, it } from "vitest";
import { tableAliases } from "./sqlAliases";

describe("table aliases", () => {
  it("reads aliases after FROM, JOIN and a FROM list's commas", () => {
    const aliases = tableAliases(
      "select o.id from orders o join customers AS c on c.id = o.customer_id, public.products p",
    );
    expect(Object.fromEntries(aliases)).toEqual({
      o: "orders",
      c: "customers",
      p: "public.products",
    });
  });

  it("takes no keyword for an alias", () => {
    expect(tableAliases("select * from orders where id = 1").size).toBe(0);
    expect(tableAliases("select * from orders left join items on true").size).toBe(0);
    expect(tableAliases("select * from orders\ngroup by 1").size).toBe(0);
  });

  it("unquotes quoted names and keeps the first use of an alias", () => {
    const aliases = tableAliases('select * from "Order Items" "oi", orders oi');
    expect(aliases.get("oi")).toBe("Order Items");
  });
});
