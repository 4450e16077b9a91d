// ClickHouse table functions and table engines that make the ClickHouse server fetch from an
// address the query text names (url('http://169.254.169.254/…'), remote('10.0.0.5'), s3(…),
// mysql(…)…) or run a program: Sightline's outbound guard cannot see those requests, since the
// ClickHouse server makes them, so a query naming one is refused before it is sent. Readonly does
// not stop them (readonly=2 allows table functions). Clusters configured in ClickHouse
// (cluster(), clusterAllReplicas(), Distributed tables) and dictionaries stay allowed: an admin
// set those up.

const REACHING = [
  "url",
  "urlCluster",
  "remote",
  "remoteSecure",
  "s3",
  "s3Cluster",
  "gcs",
  "oss",
  "cosn",
  "hdfs",
  "hdfsCluster",
  "azureBlobStorage",
  "azureBlobStorageCluster",
  "iceberg",
  "icebergS3",
  "icebergAzure",
  "icebergHDFS",
  "deltaLake",
  "hudi",
  "mysql",
  "postgresql",
  "mongodb",
  "redis",
  "jdbc",
  "odbc",
  "executable",
];

const CALL = new RegExp(`(?<![\\w.$])(${REACHING.join("|")})\\s*\\(`, "i");

/** The text with its string literals, quoted identifiers and comments blanked out. */
export function codeOnly(query: string): string {
  let out = "";
  let i = 0;
  while (i < query.length) {
    const c = query[i];
    const next = query[i + 1];
    if (c === "'" || c === '"' || c === "`") {
      let j = i + 1;
      while (j < query.length) {
        if (query[j] === "\\") j += 2;
        else if (query[j] === c && query[j + 1] === c) j += 2;
        else if (query[j] === c) break;
        else j += 1;
      }
      out += " ";
      i = j + 1;
    } else if ((c === "-" && next === "-") || c === "#") {
      const end = query.indexOf("\n", i);
      out += " ";
      i = end === -1 ? query.length : end;
    } else if (c === "/" && next === "*") {
      const end = query.indexOf("*/", i + 2);
      out += " ";
      i = end === -1 ? query.length : end + 2;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/**
 * Throws when the query calls a table function, or creates a table with an engine, that reaches
 * another server or runs a program.
 */
export function refuseOtherServers(query: string): void {
  const code = codeOnly(query);
  const call = CALL.exec(code);
  const engine = /\bENGINE\s*=\s*(\w+)/i.exec(code);
  const name =
    call?.[1] ??
    (engine && REACHING.some((r) => r.toLowerCase() === engine[1].toLowerCase())
      ? engine[1]
      : null);
  if (name) {
    throw new Error(
      `${name}(…) is not allowed on a ClickHouse data source: it makes the ClickHouse server reach another address or run a program, which Sightline's outbound guard cannot check. Ask an admin for a table or dictionary over that source instead.`,
    );
  }
}
