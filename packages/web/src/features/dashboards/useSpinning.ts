// Whether an element shows a spinner somewhere inside: a widget's body spins while its result
// loads, and again inside the visualization while a chart type loads its drawing code (a Suspense
// boundary the card cannot see). The footer says "Loading…" until neither spins.
import { useEffect, useState, type RefObject } from "react";

const SPINNING = ".ant-spin-spinning";

export function useSpinning(ref: RefObject<HTMLElement | null>): boolean {
  const [spinning, setSpinning] = useState(true);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const check = () => setSpinning(element.querySelector(SPINNING) !== null);
    check();
    const observer = new MutationObserver(check);
    observer.observe(element, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [ref]);
  return spinning;
}
