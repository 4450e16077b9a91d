import { CSRF_COOKIE, CSRF_HEADER } from "./client";
import { readDocumentCookie } from "./cookies";
import type { UploadedFile } from "./dataSources";
import { ApiError, CONNECTION_FAILED_MESSAGE } from "./errors";

/**
 * Uploads one file to an "Uploaded files" data source as multipart/form-data. XMLHttpRequest,
 * not fetch: only it reports the upload's progress. A failure is an ApiError carrying the
 * server's message (413: the size limit; 400: the name).
 */
export function uploadDataSourceFile(
  id: number,
  file: File,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<{ file: UploadedFile; replaced: boolean }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/data_sources/${id}/files`);
    xhr.withCredentials = true;
    const csrf = readDocumentCookie(CSRF_COOKIE);
    if (csrf) xhr.setRequestHeader(CSRF_HEADER, csrf);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: the status says what happened.
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as { file: UploadedFile; replaced: boolean });
        return;
      }
      const message =
        body &&
        typeof body === "object" &&
        typeof (body as { message?: unknown }).message === "string"
          ? (body as { message: string }).message
          : undefined;
      reject(new ApiError(xhr.status, message, body));
    };
    xhr.onerror = () => reject(new ApiError(0, undefined, null, CONNECTION_FAILED_MESSAGE));
    xhr.onabort = () => reject(new ApiError(0, undefined, null, "The upload was cancelled."));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
}
