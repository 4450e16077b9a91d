/**
 * Saves an object whose name must be unique in its organization (data sources, alert
 * destinations): a name another object already holds is refused before saving, and a save that
 * races with another one hits the unique index and is refused the same way.
 */
export async function saveWithUniqueName<T>(options: {
  /** The object being updated; null when creating one. */
  selfId: number | null;
  findByName: () => Promise<{ id: number } | null | undefined>;
  save: () => Promise<T>;
  refusal: () => Error;
}): Promise<T> {
  const holder = await options.findByName();
  if (holder && holder.id !== options.selfId) throw options.refusal();
  try {
    return await options.save();
  } catch {
    throw options.refusal();
  }
}
