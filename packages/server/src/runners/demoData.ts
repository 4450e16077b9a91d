import { DuckDBInstance } from "@duckdb/node-api";

/** The shop's places (country, city): its customers live in these 26 cities. */
export const DEMO_PLACES: readonly (readonly [country: string, city: string])[] = [
  ["United States of America", "New York"],
  ["United States of America", "Chicago"],
  ["United States of America", "Austin"],
  ["United States of America", "Seattle"],
  ["Canada", "Toronto"],
  ["Canada", "Vancouver"],
  ["United Kingdom", "London"],
  ["United Kingdom", "Manchester"],
  ["Germany", "Berlin"],
  ["Germany", "Munich"],
  ["France", "Paris"],
  ["France", "Lyon"],
  ["Spain", "Madrid"],
  ["Spain", "Barcelona"],
  ["Italy", "Milan"],
  ["Italy", "Rome"],
  ["Netherlands", "Amsterdam"],
  ["Sweden", "Stockholm"],
  ["Poland", "Warsaw"],
  ["Brazil", "São Paulo"],
  ["Mexico", "Mexico City"],
  ["Japan", "Tokyo"],
  ["Japan", "Osaka"],
  ["India", "Bangalore"],
  ["Australia", "Sydney"],
  ["Australia", "Melbourne"],
];

/**
 * The demo online shop, generated in DuckDB SQL. Values come from hash() of row numbers, so the
 * data is the same on every machine (dates are relative to the day it is created).
 * `rnd(i, 'salt')` is a pseudo-random number in [0, 1).
 */
const DEMO_SQL = `
CREATE MACRO rnd(i, salt) AS (hash(i, salt) % 1000000)::DOUBLE / 1000000;
CREATE MACRO pick(list, i, salt) AS list[1 + (hash(i, salt) % len(list))::INTEGER];

-- Countries carry the choropleth countries map's short names (Natural Earth's NAME), so a
-- choropleth keyed on them with Target Field "Short name" colours every one.
CREATE TABLE places AS SELECT * FROM (VALUES
  ${DEMO_PLACES.map(([country, city]) => `('${country}', '${city}')`).join(", ")}
) AS t(country, city);

CREATE TABLE customers AS
WITH base AS (SELECT range + 1 AS id FROM range(50000))
SELECT
  id,
  pick(['Ada', 'Alan', 'Grace', 'Linus', 'Maria', 'Noah', 'Olivia', 'Liam', 'Emma', 'Mateo',
        'Sofia', 'Lucas', 'Mia', 'Hiro', 'Yuki', 'Priya', 'Arjun', 'Chloe', 'Leo', 'Zoe',
        'Ines', 'Lars', 'Freya', 'Omar', 'Amara', 'Diego', 'Elena', 'Jonas', 'Nora', 'Felix'], id, 'first') AS first_name,
  pick(['Smith', 'Garcia', 'Müller', 'Rossi', 'Dubois', 'Kowalski', 'Tanaka', 'Patel', 'Silva',
        'Johansson', 'Brown', 'Martin', 'Lopez', 'Novak', 'Jensen', 'Kim', 'Nguyen', 'Costa',
        'Schmidt', 'Wilson'], id, 'last') AS last_name,
  (hash(id, 'place') % ${DEMO_PLACES.length})::INTEGER AS place_index,
  current_date - INTERVAL 730 DAY + to_days((rnd(id, 'signup') ^ 0.8 * 729)::INTEGER) AS signup_ts
FROM base;

CREATE TABLE customers_final AS
SELECT c.id, c.first_name, c.last_name,
       lower(c.first_name || '.' || c.last_name || c.id || '@example.com') AS email,
       p.country, p.city, c.signup_ts::DATE AS signup_date
FROM customers c
JOIN (SELECT row_number() OVER (ORDER BY country, city) - 1 AS place_index, * FROM places) p USING (place_index)
ORDER BY c.id;
DROP TABLE customers;
ALTER TABLE customers_final RENAME TO customers;
DROP TABLE places;

CREATE TABLE products AS
WITH base AS (SELECT range + 1 AS id FROM range(500)),
categories AS (SELECT ['Electronics', 'Books', 'Home & Kitchen', 'Toys', 'Sports', 'Clothing',
                       'Beauty', 'Garden'] AS list, [180.0, 18.0, 45.0, 25.0, 60.0, 40.0, 22.0, 35.0] AS base_price)
SELECT
  id,
  pick(['Classic', 'Smart', 'Eco', 'Pro', 'Mini', 'Deluxe', 'Compact', 'Wireless', 'Vintage', 'Ultra'], id, 'adj')
    || ' ' ||
  pick(['Lamp', 'Backpack', 'Speaker', 'Notebook', 'Kettle', 'Puzzle', 'Racket', 'Jacket', 'Serum',
        'Planter', 'Headphones', 'Mug', 'Blender', 'Novel', 'Yoga Mat', 'Sneakers'], id, 'noun')
    || ' ' || id AS name,
  list[1 + (hash(id, 'cat') % 8)::INTEGER] AS category,
  round(base_price[1 + (hash(id, 'cat') % 8)::INTEGER] * (0.3 + 2.2 * rnd(id, 'price')), 2)::DECIMAL(10, 2) AS price
FROM base, categories;

CREATE TABLE orders AS
WITH base AS (SELECT range + 1 AS id FROM range(400000)),
placed AS (
  SELECT b.id, 1 + (hash(b.id, 'customer') % 50000)::INTEGER AS customer_id, rnd(b.id, 'when') AS r
  FROM base b
)
SELECT
  p.id,
  p.customer_id,
  c.signup_date + to_seconds((p.r * (epoch(now()::TIMESTAMP) - epoch(c.signup_date::TIMESTAMP)))::BIGINT) AS ordered_at,
  CASE
    WHEN rnd(p.id, 'status') < 0.70 THEN 'delivered'
    WHEN rnd(p.id, 'status') < 0.80 THEN 'shipped'
    WHEN rnd(p.id, 'status') < 0.85 THEN 'processing'
    WHEN rnd(p.id, 'status') < 0.95 THEN 'cancelled'
    ELSE 'returned'
  END AS status
FROM placed p JOIN customers c ON c.id = p.customer_id
ORDER BY p.id;

CREATE TABLE order_items AS
WITH lines AS (
  SELECT id AS order_id, unnest(range(1 + (hash(id, 'lines') % 5)::INTEGER)) AS line FROM orders
)
SELECT
  row_number() OVER (ORDER BY order_id, line) AS id,
  order_id,
  1 + (hash(order_id * 8 + line, 'product') % 500)::INTEGER AS product_id,
  1 + (hash(order_id * 8 + line, 'qty') % 4)::INTEGER AS quantity
FROM lines;

ALTER TABLE order_items ADD COLUMN unit_price DECIMAL(10, 2);
UPDATE order_items SET unit_price = p.price FROM products p WHERE p.id = order_items.product_id;

DROP MACRO pick;
DROP MACRO rnd;
CHECKPOINT;
`;

/** Creates the demo shop database (customers, products, orders, order_items) at `filePath`. */
export async function createDemoDatabase(filePath: string): Promise<void> {
  const instance = await DuckDBInstance.create(filePath);
  try {
    const connection = await instance.connect();
    try {
      await connection.run(DEMO_SQL);
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
