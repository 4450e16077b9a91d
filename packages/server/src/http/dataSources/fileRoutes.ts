// Uploaded files of an `uploads` data source (admin): list, upload (multipart, streamed to disk,
// size-limited), and delete. The files live in the data source's own folder in the data folder.
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../policies";
import { uploadsFolder } from "../../runners/ownPaths";
import {
  checkUploadName,
  listUploads,
  tableNames,
  UPLOAD_EXTENSIONS,
  UploadNameError,
  type UploadedFile,
} from "../../runners/uploadFiles";
import { recordEvent } from "../../services/events";
import { writeCachedSchema, type DataSource } from "../../store/dataSources";
import * as S from "../schemas";
import { badRequest, HttpError, notFound } from "../errors";
import type { DataSourceSupport, Params } from "./support";

const tags = ["data sources"];
const uploadedFile = S.complete({ name: S.str, size: S.int, modified: S.timestamp }, "A file");
const listedFile = S.complete(
  { name: S.str, size: S.int, modified: S.timestamp, table: S.str },
  "A file, and the table it is queried as",
);
const fileList = S.complete(
  {
    files: S.array(listedFile),
    max_bytes: { ...S.int, description: "The largest file an upload may be" },
    extensions: S.array(S.str, "The file name extensions an upload may have"),
  },
  "The data source's uploaded files, by name",
);
const error413 = { ...S.errorMessage, description: "The file is larger than the upload limit" };
const error415 = { ...S.errorMessage, description: "The request is not multipart/form-data" };

const docs = {
  list: {
    tags,
    summary: "Uploaded files of a data source (admin)",
    params: S.idParams,
    response: { 200: fileList, ...S.errors(400, 403, 404) },
  },
  upload: {
    tags,
    summary:
      "Upload a file to a data source (admin; multipart/form-data, replaces a same-named file)",
    params: S.idParams,
    response: {
      200: S.complete(
        { file: uploadedFile, replaced: S.bool },
        "The stored file, and whether it replaced one",
      ),
      ...S.errors(400, 403, 404),
      413: error413,
      415: error415,
    },
  },
  delete: {
    tags,
    summary: "Delete an uploaded file of a data source (admin)",
    params: S.params({ id: S.storedId, name: S.str }),
    response: { 204: S.noContent, ...S.errors(400, 403, 404) },
  },
};

export const NOT_UPLOADS_MESSAGE =
  "Only data sources of the type Uploaded files hold uploaded files.";

/** "100 MB" for the limit's message. */
export function formatLimit(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1 && value % 1024 === 0) {
    value /= 1024;
    unit += 1;
  }
  return `${value} ${units[unit]}`;
}

function nameOrBadRequest(raw: unknown): string {
  try {
    return checkUploadName(raw);
  } catch (error) {
    if (error instanceof UploadNameError) throw badRequest(error.message);
    throw error;
  }
}

export async function dataSourceFileRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  support: DataSourceSupport,
): Promise<void> {
  const { db } = ctx.database;
  const maxBytes = ctx.config.uploadMaxBytes;
  const tooBig = `The file is larger than the upload limit of ${formatLimit(maxBytes)}.`;

  /** The admin's uploads data source and its folder. */
  async function uploadsSource(request: FastifyRequest<{ Params: Params }>) {
    const { identity, org } = requireAdmin(request);
    const ds: DataSource = await support.load(request, org.id);
    if (ds.type !== "uploads") throw badRequest(NOT_UPLOADS_MESSAGE);
    return { identity, org, ds, folder: uploadsFolder(ctx.config, ds.id) };
  }

  /** The schema lists the files: it is read again after a change. */
  const forgetSchema = (id: number) => writeCachedSchema(db, id, null);

  // Multipart bodies are read only by these routes, in a scope of their own.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 20 },
      // The name as sent, folders and all: such names are refused, not cut to their last part.
      preservePath: true,
    });

    scope.get<{ Params: Params }>(
      "/api/data_sources/:id/files",
      { schema: docs.list },
      async (request) => {
        const { folder } = await uploadsSource(request);
        const files = await listUploads(folder);
        const tables = tableNames(files);
        return {
          files: files.map((file) => ({ ...file, table: tables.get(file.name)! })),
          max_bytes: maxBytes,
          extensions: UPLOAD_EXTENSIONS,
        };
      },
    );

    scope.post<{ Params: Params }>(
      "/api/data_sources/:id/files",
      { schema: docs.upload },
      async (request) => {
        const { identity, org, ds, folder } = await uploadsSource(request);
        if (!request.isMultipart()) {
          throw new HttpError(415, "Send the file as multipart/form-data (a field named file).");
        }
        let part;
        try {
          part = await request.file();
        } catch (error) {
          throw badRequest(`The upload could not be read: ${(error as Error).message}.`);
        }
        if (!part) throw badRequest("The request holds no file: send it in a field named file.");
        let name: string;
        try {
          name = nameOrBadRequest(part.filename);
        } catch (error) {
          part.file.resume();
          throw error;
        }
        await mkdir(folder, { recursive: true });
        // Written under a hidden name (never listed nor queried) and moved in place once whole.
        const temp = path.join(folder, `.upload-${randomBytes(8).toString("hex")}.tmp`);
        try {
          await pipeline(part.file, createWriteStream(temp));
          if (part.file.truncated) throw new HttpError(413, tooBig);
        } catch (error) {
          await rm(temp, { force: true });
          if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") {
            throw new HttpError(413, tooBig);
          }
          if (error instanceof HttpError) throw error;
          request.log.warn({ err: error }, "upload failed");
          throw badRequest("The upload was interrupted before the whole file arrived.");
        }
        const target = path.join(folder, name);
        const replaced = (await stat(target).catch(() => null)) !== null;
        try {
          await rename(temp, target);
        } catch (error) {
          // Never left behind: a hidden temp file is neither listed nor removed by a delete.
          await rm(temp, { force: true });
          throw error;
        }
        await forgetSchema(ds.id);
        await recordEvent(db, {
          orgId: org.id,
          userId: identity.user.id,
          action: replaced ? "replace_file" : "upload_file",
          objectType: "datasource",
          objectId: ds.id,
          request,
        });
        const info = await stat(target);
        const file: UploadedFile = { name, size: info.size, modified: info.mtime.toISOString() };
        return { file, replaced };
      },
    );

    scope.delete<{ Params: Params & { name: string } }>(
      "/api/data_sources/:id/files/:name",
      { schema: docs.delete },
      async (request, reply) => {
        const { identity, org, ds, folder } = await uploadsSource(request);
        const name = nameOrBadRequest(request.params.name);
        const target = path.join(folder, name);
        const info = await stat(target).catch(() => null);
        if (!info?.isFile()) throw notFound(`No uploaded file is named ${name}.`);
        await rm(target, { force: true });
        await forgetSchema(ds.id);
        await recordEvent(db, {
          orgId: org.id,
          userId: identity.user.id,
          action: "delete_file",
          objectType: "datasource",
          objectId: ds.id,
          request,
        });
        return reply.code(204).send();
      },
    );
  });
}
