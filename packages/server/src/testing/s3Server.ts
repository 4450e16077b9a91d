// An S3-compatible server (s3rver, from npm) for the object storage tests, on 127.0.0.1 with its
// objects in a temp folder; every request it gets is recorded, so tests count object reads.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

export interface TestS3 {
  /** AWS_ENDPOINT_URL and the credentials s3rver accepts, for a server's environment. */
  env: Record<string, string>;
  bucket: string;
  /** "METHOD /path" of every request so far. */
  requests: string[];
  /** Keys of the objects in the bucket now. */
  keys(): string[];
  close(): Promise<void>;
  /** Stops at once, cutting open connections, as when the store's host goes away. */
  kill(): Promise<void>;
}

export async function startTestS3(bucket = "results"): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "sightline-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const requests: string[] = [];
  server.httpServer.on("request", (req) => requests.push(`${req.method} ${req.url}`));
  return {
    env: {
      AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
    },
    bucket,
    requests,
    keys() {
      const root = path.join(directory, bucket);
      if (!fs.existsSync(root)) return [];
      return (fs.readdirSync(root, { recursive: true }) as string[])
        .filter((name) => name.endsWith("._S3rver_object"))
        .map((name) => name.slice(0, -"._S3rver_object".length))
        .sort();
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
    async kill() {
      const closed = server.close();
      server.httpServer.closeAllConnections();
      await closed;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
