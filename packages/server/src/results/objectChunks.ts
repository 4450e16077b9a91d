import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
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
  type ChunkWriter,
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

/** The object metadata holding its row count, so reads stop at a row cap without parsing. */
const ROWS_METADATA = "rows";
/** The object metadata listing its chunks, "rows:bytes,…" in order (absent: one chunk). */
const PARTS_METADATA = "parts";
/** DeleteObjects takes at most this many keys. */
const DELETE_BATCH = 1000;

/**
 * Every object costs a request each way (and the store's own work per request), so an object
 * holds up to this many chunks (of 5,000 rows: 100,000 rows, ~1.6 MB of 100-byte rows) or this
 * many bytes. Chunks stay the unit of reading: an object's chunks are read one by one and its
 * first ones alone with a ranged read.
 */
const OBJECT_CHUNKS = 20;
const OBJECT_BYTES = 4 * 1024 * 1024;
/** Objects uploading at once while the next one fills (memory: this many + 1 objects). */
const UPLOADS_IN_FLIGHT = 2;
/**
 * A read that needs only some rows asks for a range of the object's first bytes: this much per
 * row wanted (deflated rows are ~10–40 bytes), at least RANGE_MIN_BYTES. A wider row costs one
 * more ranged request for the rest.
 */
const RANGE_BYTES_PER_ROW = 64;
const RANGE_MIN_BYTES = 256 * 1024;

/** One chunk inside an object: its rows and bytes. */
interface Part {
  rowCount: number;
  bytes: number;
}

/**
 * Chunks as objects of an S3-compatible store: a result's chunks live under a random place
 * `s3://bucket/prefix/<uuid>`, as the objects `<place>/0`, `<place>/1`, … each holding one or more
 * chunks one after the other (listed in its metadata). The place is chosen before the result's
 * row exists, so chunks are uploaded while the rows stream in.
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
      // Checksums only where S3 requires one (DeleteObjects): TCP and the store's own MD5 guard the
      // chunks, the CRC-32 of every body cost CPU on each side, and some S3-compatible stores
      // refuse the newer checksum headers.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
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
    await this.upload(place, chunk.seq, [chunk]);
  }

  writer(_db: unknown, place: ChunkPlace): ChunkWriter {
    let chunks: StoredChunk[] = [];
    let bytes = 0;
    let seq = 0;
    const uploads: Promise<void>[] = [];
    const send = async () => {
      const upload = this.upload(place, seq, chunks);
      // Awaited below or in finish(); until then its failure is not unhandled.
      upload.catch(() => undefined);
      uploads.push(upload);
      seq += 1;
      chunks = [];
      bytes = 0;
      if (uploads.length > UPLOADS_IN_FLIGHT) await uploads.shift();
    };
    return {
      async put(chunk) {
        chunks.push(chunk);
        bytes += chunk.data.length;
        if (chunks.length >= OBJECT_CHUNKS || bytes >= OBJECT_BYTES) await send();
      },
      async finish() {
        if (chunks.length > 0) await send();
        await Promise.all(uploads.splice(0));
      },
      async abort() {
        chunks = [];
        await Promise.allSettled(uploads.splice(0));
      },
    };
  }

  /** Uploads chunks as the object `seq` of the place. */
  private async upload(place: ChunkPlace, seq: number, chunks: StoredChunk[]): Promise<void> {
    const { bucket, key } = this.split(place);
    const body = chunks.length === 1 ? chunks[0]!.data : Buffer.concat(chunks.map((c) => c.data));
    const rows = chunks.reduce((sum, c) => sum + c.rowCount, 0);
    const parts = chunks.map((c) => `${c.rowCount}:${c.data.length}`).join(",");
    await this.call("store", () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: `${key}/${seq}`,
          Body: body,
          ContentLength: body.length,
          ContentType: "application/octet-stream",
          Metadata: {
            [ROWS_METADATA]: String(rows),
            ...(chunks.length > 1 ? { [PARTS_METADATA]: parts } : {}),
          },
        }),
      ),
    );
  }

  async *read(_db: unknown, place: ChunkPlace, chunkCount: number, maxRows: number) {
    const { bucket, key } = this.split(place);
    const fetch = (seq: number, rowsWanted: number) => {
      const chunks = this.call("read", () => this.readObject(bucket, `${key}/${seq}`, rowsWanted));
      // Awaited on the next turn; until then (or if the reader stops) not an unhandled failure.
      chunks.catch(() => undefined);
      return chunks;
    };
    let chunksRead = 0;
    let rowsRead = 0;
    let next = chunkCount > 0 && maxRows > 0 ? fetch(0, maxRows) : null;
    for (let seq = 0; next !== null; seq += 1) {
      const chunks = await next;
      // The next object is fetched while this one is used, unless the row cap is reached in it:
      // the first page of a big result reads (part of) one object.
      const rowsAfter = rowsRead + chunks.reduce((sum, c) => sum + c.rowCount, 0);
      next =
        chunksRead + chunks.length < chunkCount && rowsAfter < maxRows
          ? fetch(seq + 1, maxRows - rowsAfter)
          : null;
      for (const chunk of chunks) {
        if (chunksRead >= chunkCount || rowsRead >= maxRows) break;
        chunksRead += 1;
        rowsRead += chunk.rowCount;
        yield chunk;
      }
    }
  }

  /**
   * An object's chunks, enough of them for `rowsWanted` rows: all of them, or those in a range of
   * its first bytes (a second ranged request fetches the rest when the first fell short).
   */
  private async readObject(
    bucket: string,
    key: string,
    rowsWanted: number,
  ): Promise<{ rowCount: number; data: Buffer }[]> {
    const get = async (range?: string) => {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: bucket, Key: key, Range: range }),
      );
      return { answer, data: await bodyBytes(key, answer.Body as Readable, answer.ContentLength) };
    };
    const ranged = Number.isFinite(rowsWanted);
    const first = ranged
      ? await get(`bytes=0-${Math.max(RANGE_MIN_BYTES, rowsWanted * RANGE_BYTES_PER_ROW) - 1}`)
      : await get();
    const { answer } = first;
    const total = ranged
      ? Number(/\/(\d+)$/.exec(answer.ContentRange ?? "")?.[1] ?? first.data.length)
      : first.data.length;
    const parts = objectParts(key, answer.Metadata ?? {}, total);
    // The chunks needed, and where the bytes already received end.
    let wanted = 0;
    let rows = 0;
    let end = 0;
    while (wanted < parts.length && rows < rowsWanted) {
      rows += parts[wanted]!.rowCount;
      end += parts[wanted]!.bytes;
      wanted += 1;
    }
    // When the range fell short, the chunks from the first one not wholly received on come from
    // a second ranged request.
    let rest: { from: number; data: Buffer } | null = null;
    if (end > first.data.length) {
      let from = 0;
      for (const part of parts) {
        if (from + part.bytes > first.data.length) break;
        from += part.bytes;
      }
      rest = { from, data: (await get(`bytes=${from}-${end - 1}`)).data };
      if (rest.data.length !== end - from) {
        throw new ResultStorageError(`The stored result object ${key} is shorter than listed.`);
      }
    }
    let offset = 0;
    return parts.slice(0, wanted).map(({ rowCount, bytes }) => {
      const [source, start] =
        rest && offset >= rest.from ? [rest.data, offset - rest.from] : [first.data, offset];
      offset += bytes;
      return { rowCount, data: source.subarray(start, start + bytes) };
    });
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

/** The chunks an object holds, from its metadata; checked against its size. */
function objectParts(key: string, metadata: Record<string, string>, size: number): Part[] {
  const rowCount = Number(metadata[ROWS_METADATA] ?? Number.NaN);
  const listed = metadata[PARTS_METADATA];
  const parts = listed
    ? listed.split(",").map((part) => {
        const [rows, bytes] = part.split(":");
        return { rowCount: Number(rows), bytes: Number(bytes) };
      })
    : [{ rowCount, bytes: size }];
  const valid = parts.every(
    (p) => Number.isSafeInteger(p.rowCount) && Number.isSafeInteger(p.bytes),
  );
  if (!valid || parts.reduce((sum, p) => sum + p.bytes, 0) !== size) {
    throw new ResultStorageError(`The stored result object ${key} has no valid chunk list.`);
  }
  return parts;
}

/** A response body read into one buffer of its announced length (no list of pieces to join). */
async function bodyBytes(key: string, body: Readable, length: number | undefined): Promise<Buffer> {
  if (length === undefined) return Buffer.concat(await body.toArray());
  const data = Buffer.allocUnsafe(length);
  let offset = 0;
  for await (const piece of body as AsyncIterable<Buffer>) {
    if (offset + piece.length > length) {
      throw new ResultStorageError(`The stored result object ${key} is longer than announced.`);
    }
    piece.copy(data, offset);
    offset += piece.length;
  }
  if (offset !== length) {
    throw new ResultStorageError(`The stored result object ${key} is shorter than announced.`);
  }
  return data;
}
