// What the Files section of an "Uploaded files" data source knows about uploads in progress,
// and the checks made before a file is sent (the server makes them again).
import { prettySize } from "@sightline/core";
import { isApiError } from "../../api/errors";

/** One upload shown under the drop area: its progress, then its end. */
export interface UploadState {
  key: string;
  name: string;
  percent: number;
  status: "uploading" | "done" | "error";
  error?: string;
}

/** The type's data source identifier. */
export const UPLOADS_TYPE = "uploads";

/** "100 MB", as the server names its limit. */
export function sizeLimitText(bytes: number): string {
  return prettySize(bytes, 1);
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : "";
}

/** Why the file will not be taken, or null: the server's rules, told before sending it. */
export function refusalBeforeUpload(
  file: { name: string; size: number },
  limits: { max_bytes: number; extensions: string[] },
): string | null {
  if (file.size > limits.max_bytes) {
    return `The file is larger than the upload limit of ${sizeLimitText(limits.max_bytes)}.`;
  }
  if (!limits.extensions.includes(extensionOf(file.name))) {
    return `"${file.name}" is not a file type that can be queried: upload ${limits.extensions.join(", ")} files.`;
  }
  return null;
}

/** A replacement keeps the replaced file's name, so it must be of the same type. */
export function refusalToReplace(chosen: string, replaced: string): string | null {
  const ext = extensionOf(replaced);
  return extensionOf(chosen) === ext
    ? null
    : `Choose a ${ext} file to replace ${replaced} (the replacement keeps its name).`;
}

/** The server's message for a failed call, or a plain one. */
export function uploadErrorMessage(error: unknown): string {
  if (isApiError(error)) {
    if (error.serverMessage) return error.serverMessage;
    if (error.status === 413) return "The file is larger than the upload limit.";
    return error.message;
  }
  return error instanceof Error && error.message ? error.message : "The upload failed.";
}
