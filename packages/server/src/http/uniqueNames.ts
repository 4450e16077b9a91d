import { badRequest } from "./errors";

/**
 * Saves an object whose name must be unique in its organization (data sources, alert
 * destinations): a name another object already holds is refused before saving, and a save that
 * races with another one hits the unique index and is refused the same way (400).
 */
export async function saveWithUniqueName<T>(options: {
  /** What the refusal calls the object: "Data source", "Alert Destination". */
  kind: string;
  name: string;
  /** The object being updated; null when creating one. */
  selfId: number | null;
  findByName: (name: string) => Promise<{ id: number } | null | undefined>;
  save: () => Promise<T>;
}): Promise<T> {
  const { kind, name } = options;
  const refusal = () => badRequest(`${kind} with the name ${name} already exists.`);
  const holder = await options.findByName(name);
  if (holder && holder.id !== options.selfId) throw refusal();
  try {
    return await options.save();
  } catch {
    throw refusal();
  }
}
