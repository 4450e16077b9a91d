import { randomUUID } from "node:crypto";
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import {
  ResultStorageError,
  type ChunkPlace,
  type ChunkStore,
  type StoredChunk,
} from "./chunkStore";

/** SIGHTLINE_RESULTS_URL and the standard AWS settings beside it (config.ts). */
export interface ResultsStorageConfig {
  /** `s3://bucket/prefix` as configured (no credentials in it). */
  url: string;
  bucket: string;
  /** Key prefix without surrounding slashes; "" for the bucket's root. */
  prefix: string;
  /** AWS_ENDPOINT_URL: an S3-compatible service (MinIO, R2, GCS…), addressed path-style. */
  endpoint: string | null;
  region: string;
  /** Unset: the AWS SDK's default credential chain (instance role, ~/.aws, …). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
}

/** The object metadata holding a chunk's row count, so reads stop at a row cap without parsing. */
const ROWS_METADATA = "rows";
/** DeleteObjects takes at most this many keys. */
const DELETE_BATCH = 1000;

/**
 * Chunks as objects of an S3-compatible store: a result's chunks live under a random place
 * `s3://bucket/prefix/<uuid>`, chunk `seq` as the object `<place>/<seq>`. The place is chosen
 * before the result's row exists, so chunks are uploaded while the rows stream in.
 */
export class ObjectChunkStore implements ChunkStore {
  private readonly client: S3Client;

  constructor(private readonly config: ResultsStorageConfig) {
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
      ...(config.accessKeyId && config.secretAccessKey
        ? {
            credentials: {
              accessKeyId: config.accessKeyId,
              secretAccessKey: config.secretAccessKey,
            },
          }
        : {}),
      maxAttempts: 3,
      // A store that stops answering (not refusing) fails the write or read instead of holding it
      // forever: 5 s to connect, 30 s without a byte on an open request.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
    });
  }

  newLocation(name?: string): string {
    const prefix = this.config.prefix ? `${this.config.prefix}/` : "";
    return `s3://${this.config.bucket}/${prefix}${name ?? randomUUID()}`;
  }

  async put(_db: unknown, place: ChunkPlace, chunk: StoredChunk): Promise<void> {
    const { bucket, key } = this.split(place);
    await this.call("store", () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: `${key}/${chunk.seq}`,
          Body: chunk.data,
          ContentLength: chunk.data.length,
          ContentType: "application/octet-stream",
          Metadata: { [ROWS_METADATA]: String(chunk.rowCount) },
        }),
      ),
    );
  }

  async *read(_db: unknown, place: ChunkPlace, chunkCount: number, maxRows: number) {
    const { bucket, key } = this.split(place);
    const fetch = (seq: number) => {
      const chunk = this.call("read", async () => {
        const answer = await this.client.send(
          new GetObjectCommand({ Bucket: bucket, Key: `${key}/${seq}` }),
        );
        const data = await answer.Body!.transformToByteArray();
        return { rowCount: Number(answer.Metadata?.[ROWS_METADATA] ?? Number.NaN), data };
      });
      // Awaited on the next turn; until then (or if the reader stops) not an unhandled failure.
      chunk.catch(() => undefined);
      return chunk;
    };
    let read = 0;
    let next = chunkCount > 0 && maxRows > 0 ? fetch(0) : null;
    for (let seq = 0; next !== null; seq += 1) {
      const chunk = await next;
      if (!Number.isFinite(chunk.rowCount)) {
        throw new ResultStorageError(`The stored result chunk ${key}/${seq} has no row count.`);
      }
      read += chunk.rowCount;
      // The next object is fetched while this one is used, unless the row cap is reached: the
      // first page of a big result reads one object.
      next = seq + 1 < chunkCount && read < maxRows ? fetch(seq + 1) : null;
      const { buffer, byteOffset, byteLength } = chunk.data;
      yield { rowCount: chunk.rowCount, data: Buffer.from(buffer, byteOffset, byteLength) };
    }
  }

  /** Deletes every object under each place, also those of a write that was cut short. */
  async remove(_db: unknown, places: ChunkPlace[]): Promise<void> {
    for (const place of places) {
      if (place.location === null) continue;
      const { bucket, key } = this.split(place);
      let token: string | undefined;
      do {
        const page = await this.call("delete", () =>
          this.client.send(
            new ListObjectsV2Command({
              Bucket: bucket,
              Prefix: `${key}/`,
              ContinuationToken: token,
              MaxKeys: DELETE_BATCH,
            }),
          ),
        );
        const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
        if (keys.length > 0) {
          await this.call("delete", () =>
            this.client.send(
              new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }),
            ),
          );
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    }
  }

  close(): void {
    this.client.destroy();
  }

  private split(place: ChunkPlace): { bucket: string; key: string } {
    const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(place.location ?? "");
    if (!match) throw new ResultStorageError(`Unknown result chunk location "${place.location}".`);
    return { bucket: match[1]!, key: match[2]! };
  }

  /** Runs one request; its failure becomes a ResultStorageError naming the store, never a secret. */
  private async call<T>(action: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      const reason = error instanceof Error ? error.message || error.name : String(error);
      throw new ResultStorageError(
        `Could not ${action} the result's rows in object storage (${this.config.url}): ${reason}`,
        { cause: error },
      );
    }
  }
}
