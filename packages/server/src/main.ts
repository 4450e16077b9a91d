import { ConfigError, loadConfig } from "./config";
import { createServer } from "./server";
import { runCli } from "./cli";
import { runBackground } from "./execution/process";
import { createLogger } from "./logging";

const USAGE = `Usage: sightline <command>

Commands:
  all                       server, worker and scheduler in one process (embedded default)
  server                    the HTTP server only (scaled mode)
  worker                    a query worker (scaled mode)
  scheduler                 the scheduler (scaled mode)
  users create [--admin] [--password PASSWORD] EMAIL NAME
                            create a user (prints an invite link when no password is given)
  org enable-password-login turn password login back on (when no other login method works)
  results move [--to-database]
                            move stored results to the object storage of SIGHTLINE_RESULTS_URL
                            (or back); resumable
`;

/**
 * A promise rejected with nobody listening (a background write that met a database outage, say)
 * is logged and the process goes on serving: Node's default would end it, and with it all the
 * work in flight. Errors thrown outside any promise still end the process.
 */
function logStrayRejections(logLevel: string): void {
  const log = createLogger(logLevel);
  process.on("unhandledRejection", (reason) => {
    log.error({ err: reason }, "unhandled promise rejection (the process keeps running)");
  });
}

async function serve(mode: string): Promise<void> {
  const config = loadConfig();
  const server = await createServer(config);
  const { app } = server;
  const stop = async (signal: string) => {
    app.log.info({ signal }, "shutting down");
    await server.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ mode, url: config.baseUrl }, `Sightline is running on ${config.baseUrl}`);
}

async function main(argv: string[]): Promise<number> {
  const [command = "all", ...rest] = argv;
  switch (command) {
    case "all":
    case "server":
      logStrayRejections(loadConfig().logLevel);
      await serve(command);
      return -1;
    case "worker":
    case "scheduler": {
      const config = loadConfig();
      logStrayRejections(config.logLevel);
      await runBackground(config, command);
      return -1;
    }
    case "users":
    case "org":
    case "results":
      return runCli([command, ...rest]);
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(`Unknown command "${command}".\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(78);
    }
    process.stderr.write(
      `Sightline failed to start: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  },
);
