import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ModelPicker } from "../../src/renderer/src/features/models/ModelPicker";
import { fakeApi, someModels } from "./fixtures";

afterEach(cleanup);

describe("the model picker", () => {
  it("says nothing more while the chosen model is there", () => {
    render(<ModelPicker models={someModels} api={fakeApi()} />);
    expect(screen.queryByTestId("model-unavailable")).toBeNull();
  });

  it("says when the chat's model is gone, and whose it was", () => {
    const { rerender } = render(
      <ModelPicker
        models={{ ...someModels, unavailable: { provider: "local", id: "m9", of: "chat" } }}
        api={fakeApi()}
      />,
    );
    expect(screen.getByTestId("model-unavailable").textContent).toBe(
      "This chat used local/m9, which is gone (no longer among Pi's models, or its provider has no key). Pick a model to go on.",
    );
    rerender(
      <ModelPicker
        models={{ ...someModels, unavailable: { provider: "local", id: "m9", of: "workspace" } }}
        api={fakeApi()}
      />,
    );
    expect(screen.getByTestId("model-unavailable").textContent).toContain(
      "This workspace's model local/m9 is gone",
    );
  });
});
