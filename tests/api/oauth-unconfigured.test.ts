// A deployment without provider credentials (or with only half of them): OAuth sign-in answers 501
// and names the provider; unknown providers are still 404. (Its own file: the configuration is read
// once per process.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";

let api: TestApi;
beforeAll(async () => {
  for (const name of ["GOOGLE", "GITHUB", "TWITTER"]) {
    delete process.env[`${name}_CLIENT_ID`];
    delete process.env[`${name}_CLIENT_SECRET`];
  }
  process.env.GITHUB_CLIENT_ID = "only-the-id"; // a secret is needed too
  api = await startApi();
});
afterAll(() => api?.close());

describe("GET /auth/oauth/{provider} without credentials", () => {
  it.each([
    ["github", "github sign-in is not configured"],
    ["google", "google sign-in is not configured"],
    ["twitter", "twitter sign-in is not configured"],
    ["x", "x sign-in is not configured"],
  ])("%s: 501 %j, no redirect, no cookie", async (provider, detail) => {
    const res = await fetch(`${api.url}/api/v1/auth/oauth/${provider}?redirect_to=/claims`, { redirect: "manual" });
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({ code: "not_configured", detail });
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("an unknown provider is still 404", async () => {
    const res = await api.get("/auth/oauth/myspace");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "not_found", detail: "Unknown provider" });
  });
});
