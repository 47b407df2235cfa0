import { describe, expect, it } from "vitest";
import { baseUrlVariable, defaultBaseUrl } from "../../src/site/build-options.ts";

describe("defaultBaseUrl: the origin of the pre-rendered links", () => {
  const netlify = { URL: "https://subjekti.example", DEPLOY_PRIME_URL: "https://deploy-preview-7--subjekti.netlify.app" };
  it.each([
    ["production context -> URL", { ...netlify, CONTEXT: "production" }, "https://subjekti.example"],
    [
      "deploy-preview context -> DEPLOY_PRIME_URL",
      { ...netlify, CONTEXT: "deploy-preview" },
      "https://deploy-preview-7--subjekti.netlify.app",
    ],
    [
      "branch-deploy context -> DEPLOY_PRIME_URL",
      { ...netlify, CONTEXT: "branch-deploy" },
      "https://deploy-preview-7--subjekti.netlify.app",
    ],
    ["no context but DEPLOY_PRIME_URL -> DEPLOY_PRIME_URL", netlify, "https://deploy-preview-7--subjekti.netlify.app"],
    ["URL alone -> URL", { URL: "https://subjekti.example" }, "https://subjekti.example"],
    ["production without URL -> the local preview's", { CONTEXT: "production" }, "http://localhost:8080"],
    ["nothing -> the local preview's", {}, "http://localhost:8080"],
  ])("%s", (_name, env, expected) => {
    expect(defaultBaseUrl(env)).toBe(expected);
    // The variable a refusal names is the one the origin came from.
    const variable = baseUrlVariable(env);
    expect(variable === undefined ? "http://localhost:8080" : (env as Record<string, string>)[variable]).toBe(expected);
  });
});
