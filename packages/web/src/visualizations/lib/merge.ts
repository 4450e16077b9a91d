// lodash-style deep merge used to fill defaults (catalogue 1.2): objects merge key by key,
// arrays merge by index, an undefined source value never overrides, null does.

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function cloneDeep<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneDeep) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = cloneDeep(v);
    return out as T;
  }
  return value;
}

function mergeInto(target: unknown, source: unknown): unknown {
  if (source === undefined) return target;
  if (Array.isArray(source)) {
    const base: unknown[] = Array.isArray(target) ? [...target] : [];
    source.forEach((v, i) => {
      base[i] = mergeInto(base[i], v);
    });
    return base;
  }
  if (isPlainObject(source)) {
    const base: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
    for (const [k, v] of Object.entries(source)) {
      if (k === "__proto__" || k === "constructor") continue;
      base[k] = mergeInto(base[k], v);
    }
    return base;
  }
  return cloneDeep(source);
}

/** A new object: defaults with every stored value laid over them. Neither input is changed. */
export function mergeOptions<T extends Record<string, unknown>>(
  defaults: T,
  ...sources: unknown[]
): T {
  let out: unknown = cloneDeep(defaults);
  for (const s of sources) out = mergeInto(out, isPlainObject(s) ? s : undefined);
  return out as T;
}

/** Safely read a nested object option. */
export function asObject(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}

export function asString(value: unknown, fallback = ""): string {
  return typeof value === "string"
    ? value
    : value === null || value === undefined
      ? fallback
      : String(value);
}

export function asNumber(value: unknown, fallback: number): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : fallback;
}
