// A dashboard page re-renders on every widget's report (running, filters found), and each render
// builds every widget's props afresh: parameter values and lists are new objects with the same
// content, which defeats the widgets' memo and re-renders all 30 for each report. The grid keeps
// the element it had for a widget while the new one's props say the same thing.
import { isValidElement, useRef, type ReactNode } from "react";

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/**
 * Equal plain data: the same value, or arrays and plain objects whose items are equal plain
 * data. Anything else (a function, a Date, a Map) only equals itself, so a new callback is
 * always a change.
 */
function sameData(x: unknown, y: unknown): boolean {
  if (Object.is(x, y)) return true;
  if (Array.isArray(x) && Array.isArray(y))
    return x.length === y.length && x.every((item, i) => sameData(item, y[i]));
  if (isPlainObject(x) && isPlainObject(y)) return sameProps(x, y);
  return false;
}

/** True when every prop is the same value, or plain data (objects, arrays) of equal content. */
export function sameProps(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => key in b && sameData(a[key], b[key]));
}

/** The rendered widgets by id, each the previous element while its props are the same. */
export function useStableElements(rendered: ReadonlyMap<number, ReactNode>) {
  const previous = useRef<ReadonlyMap<number, ReactNode>>(new Map());
  const out = new Map<number, ReactNode>();
  for (const [id, next] of rendered) {
    const before = previous.current.get(id);
    const keep =
      isValidElement(before) &&
      isValidElement(next) &&
      before.type === next.type &&
      before.key === next.key &&
      sameProps(before.props as Record<string, unknown>, next.props as Record<string, unknown>);
    out.set(id, keep ? before : next);
  }
  previous.current = out;
  return out;
}
