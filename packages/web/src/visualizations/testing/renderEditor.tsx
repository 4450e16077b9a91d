// What the options-editor tests share: the browser pieces antd needs that jsdom lacks, and an
// editor rendered with mocks that record its changes.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ComponentType } from "react";
import { afterEach, beforeEach, vi } from "vitest";
import { stubLayout } from "../../testing/layout";
import { DEFAULT_FORMATS, type EditorProps, type Options, type QueryResultData } from "../types";

/** Call at the top of an editor test file: stubs matchMedia and ResizeObserver around each test. */
export function stubBrowserForEditors(): void {
  beforeEach(stubLayout);
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}

/** Renders an editor over these options and data, with the default formats. */
export function renderEditor(
  Editor: ComponentType<EditorProps>,
  options: Options,
  data: QueryResultData,
) {
  const onOptionsChange = vi.fn<(changes: Options) => void>();
  const onReplaceOptions = vi.fn<(options: Options) => void>();
  const view = render(
    <Editor
      options={options}
      data={data}
      formats={DEFAULT_FORMATS}
      onOptionsChange={onOptionsChange}
      onReplaceOptions={onReplaceOptions}
    />,
  );
  const openTab = (name: string) => fireEvent.click(screen.getByRole("tab", { name }));
  return { view, onOptionsChange, onReplaceOptions, openTab };
}
