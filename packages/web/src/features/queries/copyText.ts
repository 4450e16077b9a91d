// Putting a text on the clipboard from a button click.

/**
 * Copies the text; false when the browser refused. The Clipboard API exists only in secure
 * contexts (https, localhost): a server reached over plain http on an intranet has none, so
 * there the text is selected in a hidden box and copied the older way. The box goes beside
 * `near` (the clicked button): a dialog keeps the focus inside itself, and a box outside it
 * would lose its selection before the copy.
 */
export async function copyText(text: string, near: Element = document.body): Promise<boolean> {
  if (navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (e.g. no permission): the older way may still work.
    }
  }
  return copyBySelection(text, near.parentElement ?? document.body);
}

function copyBySelection(text: string, container: Element): boolean {
  const box = document.createElement("textarea");
  box.value = text;
  box.readOnly = true;
  // Off screen but selectable; fixed, so selecting it does not scroll the page.
  box.style.position = "fixed";
  box.style.top = "0";
  box.style.left = "-9999px";
  const focused = document.activeElement;
  container.appendChild(box);
  box.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    box.remove();
    if (focused instanceof HTMLElement) focused.focus();
  }
}
