import { useEffect } from "react";

export const PRODUCT_NAME = "Sightline";

/** Sets the browser tab title: "<title> | Sightline", or just the product name. */
export function usePageTitle(title?: string, enabled = true): void {
  useEffect(() => {
    if (enabled) document.title = title ? `${title} | ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title, enabled]);
}
