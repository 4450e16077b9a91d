// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stubMatchMedia } from "../../testing/matchMedia";
import { renderWithQueries } from "../../testing/render";
import { json } from "../../testing/responses";
import { defaultParameterTitle, ParameterDialog } from "./ParameterDialog";

beforeEach(() => {
  stubMatchMedia();
  vi.stubGlobal("fetch", async () => json({ results: [], count: 0 }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function openNew(onSave = vi.fn()) {
  renderWithQueries(
    <ParameterDialog existingNames={["region"]} onSave={onSave} onClose={vi.fn()} />,
  );
  return onSave;
}

const keyword = () => screen.getByLabelText("Keyword") as HTMLInputElement;
const title = () => screen.getByLabelText("Title") as HTMLInputElement;
const addButton = () => screen.getByRole("button", { name: "Add Parameter" }) as HTMLButtonElement;

describe("the new-parameter dialog (spec 3 §5)", () => {
  it("titles a parameter with its keyword in capitalised words until the title is edited", () => {
    expect(defaultParameterTitle("order_date")).toBe("Order Date");
    expect(defaultParameterTitle("n")).toBe("N");
    const onSave = openNew();
    fireEvent.change(keyword(), { target: { value: "order_date" } });
    expect(title().value).toBe("Order Date");
    fireEvent.click(addButton());
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({ name: "order_date", title: "Order Date" }),
    );
  });

  it("asks for a keyword, refuses a taken one, and keeps an edited title", () => {
    const onSave = openNew();
    fireEvent.change(keyword(), { target: { value: "x" } });
    fireEvent.change(keyword(), { target: { value: "" } });
    expect(screen.getByText("Choose a keyword for this parameter")).toBeTruthy();
    fireEvent.change(keyword(), { target: { value: "region" } });
    expect(screen.getByText("Parameter with this name already exists")).toBeTruthy();
    fireEvent.click(addButton());
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.change(title(), { target: { value: "Where" } });
    fireEvent.change(keyword(), { target: { value: "place" } });
    expect(title().value).toBe("Where");
    fireEvent.click(addButton());
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ name: "place", title: "Where" }));
  });

  it("disables Add Parameter while the title is empty", () => {
    openNew();
    fireEvent.change(keyword(), { target: { value: "place" } });
    expect(addButton().disabled).toBe(false);
    fireEvent.change(title(), { target: { value: "" } });
    expect(addButton().disabled).toBe(true);
  });
});
