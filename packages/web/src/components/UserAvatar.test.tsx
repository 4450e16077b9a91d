import { describe, expect, it } from "vitest";
import { initials, shownImage } from "./UserAvatar";

describe("user avatars", () => {
  it("draws initials from the first and last word", () => {
    expect(initials("Ada King")).toBe("AK");
    expect(initials("  ada   lovelace king ")).toBe("AK");
    expect(initials("Zoë")).toBe("Z");
    expect(initials("")).toBe("?");
    expect(initials(undefined)).toBe("?");
    expect(initials("😀 Smile")).toBe("😀S");
  });

  it("loads a Gravatar image only while Gravatar is on", () => {
    const gravatar = "https://www.gravatar.com/avatar/abc?s=40&d=identicon";
    expect(shownImage(gravatar, false)).toBeUndefined();
    expect(shownImage("//secure.gravatar.com/avatar/abc", false)).toBeUndefined();
    expect(shownImage(gravatar, true)).toBe(gravatar);
    expect(shownImage("/static/images/avatar.svg", false)).toBe("/static/images/avatar.svg");
    expect(shownImage("https://pictures.example.com/me.png", false)).toBe(
      "https://pictures.example.com/me.png",
    );
    expect(shownImage(undefined, true)).toBeUndefined();
    expect(shownImage("https://evilgravatar.com.example/x", false)).toBe(
      "https://evilgravatar.com.example/x",
    );
  });
});
