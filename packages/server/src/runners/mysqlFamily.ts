// MySQL-protocol systems as types of their own on the mysql runner: MariaDB, Amazon RDS/Aurora
// MySQL (Redash's rds_mysql), TiDB. Each has the defaults its hosts need.
import { mysqlRunner } from "./mysql";
import { preset } from "./presets";

export const mariadbRunner = preset(mysqlRunner, {
  type: "mariadb",
  name: "MariaDB",
  defaults: { port: 3306 },
});

export const rdsMysqlRunner = preset(mysqlRunner, {
  type: "rds_mysql",
  name: "MySQL (Amazon RDS)",
  // RDS and Aurora accept TLS on every instance. "required" encrypts without checking the
  // certificate, since Amazon's CA bundle is not shipped: for "Verify Identity", download
  // Amazon's global-bundle.pem onto the server and give its path as the CA certificate file.
  defaults: { port: 3306, use_ssl: true, ssl_mode: "required" },
  required: ["db", "user", "passwd", "host"],
});

export const tidbRunner = preset(mysqlRunner, {
  type: "tidb",
  name: "TiDB",
  // TiDB Cloud refuses connections without TLS and its certificate is signed by a public CA
  // (Node's own list), so it is checked; a self-hosted TiDB without TLS needs "Use SSL" off.
  defaults: { port: 4000, user: "root", use_ssl: true, ssl_mode: "verify-identity" },
});
