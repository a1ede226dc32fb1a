// The layers of docs/architecture.md are lint rules (eslint.config.js): an import across
// a layer's boundary fails `npm run lint`, by the `~/` alias and by relative path alike.
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: ROOT });

/** The no-restricted-imports messages ESLint gives this source, linted as if it were `file`. */
async function restricted(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const probe = 1;\n`, { filePath: path.join(ROOT, file) });
  expect(result.messages.filter((m) => m.fatal)).toEqual([]);
  return result.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("the layers are enforced by lint", () => {
  it.each([
    ["app/domain/probe.ts", `import { getConfig } from "~/server/platform/config.server";`],
    ["app/domain/probe.ts", `import { getConfig } from "../server/platform/config.server";`],
    ["app/domain/probe.ts", `import { Toaster } from "~/components/toaster";`],
    ["app/domain/probe.ts", `import { redirect } from "react-router";`],
    ["app/domain/probe.ts", `import { z } from "zod";`],
    ["app/domain/probe.ts", `export { COPY } from "~/routes/auth";`],
    ["app/components/probe.tsx", `import { getConfig } from "~/server/platform/config.server";`],
    ["app/components/probe.tsx", `import { requireUser } from "../server/context.server";`],
    ["app/components/probe.tsx", `import { loader } from "~/routes/home/route";`],
    ["app/server/services/probe.server.ts", `import { Toaster } from "~/components/toaster";`],
    ["app/server/services/probe.server.ts", `import { loader } from "../../routes/healthz";`],
    ["app/server/platform/probe.server.ts", `import type { Backend } from "~/server/backend/port.server";`],
    ["app/server/platform/probe.server.ts", `import { getBackend } from "../backend/index.server";`],
    ["app/server/platform/probe.server.ts", `import { placeOrder } from "../services/orders.server";`],
    ["app/server/backend/probe.server.ts", `import { placeOrder } from "~/server/services/orders.server";`],
    ["app/server/backend/sql/probe.server.ts", `import { placeOrder } from "../../services/orders.server";`],
    ["app/server/storage/probe.server.ts", `import { placeOrder } from "~/server/services/orders.server";`],
    ["app/server/storage/probe.server.ts", `import type { Backend } from "../backend/port.server";`],
    ["app/server/platform/probe.server.ts", `import { getStorage } from "../storage/index.server";`],
    ["app/server/backend/probe.server.ts", `import type { Storage } from "~/server/storage/port.server";`],
    ["app/server/platform/probe.server.ts", `import type { Toast } from "~/components/toaster";`],
    ["app/routes/probe.tsx", `import { getBackend } from "../server/backend/index.server";`],
    ["app/root.tsx", `import { getBackend } from "./server/backend/index.server";`],
    ["app/routes/probe.tsx", `import { getStorage } from "~/server/storage/index.server";`],
    ["app/server/backend/probe.server.ts", `import { requestContext } from "../context.server";`],
    ["server/probe.ts", `import { loader } from "../app/routes/healthz";`],
    ["server/probe.ts", `import { Toaster } from "~/components/toaster";`],
  ])("%s: %s fails", async (file, source) => {
    const messages = await restricted(file, source);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("docs/architecture.md");
  });

  it.each([
    ["app/domain/probe.ts", `import { COPY } from "./copy";`],
    ["app/domain/probe.ts", `import { COPY } from "~/domain/copy";`],
    ["app/domain/schemas.ts", `import { z } from "zod";`],
    ["app/components/probe.tsx", `import { COPY } from "~/domain/copy"; import { Form } from "react-router";`],
    ["app/server/platform/probe.server.ts", `import { getConfig } from "./config.server";`],
    ["app/server/services/probe.server.ts", `import type { Backend } from "../backend/port.server";`],
    ["app/server/backend/probe.server.ts", `import { getLog } from "../platform/log.server";`],
    ["app/server/middleware.server.ts", `import { getBackend } from "./backend/index.server";`],
    ["app/server/storage/probe.server.ts", `import { getConfig } from "../platform/config.server";`],
    ["app/server/services/probe.server.ts", `import type { Storage } from "../storage/port.server";`],
    ["app/server/platform/probe.server.ts", `import type { Toast } from "~/domain/toast";`],
    ["app/server/platform/probe.server.ts", `import { requestContext } from "../context.server";`],
    ["app/routes/probe.tsx", `import type { BackendRequest } from "../server/backend/port.server";`],
    ["server/probe.ts", `import { getBackend } from "~/server/backend/index.server";`],
  ])("%s: %s passes", async (file, source) => {
    expect(await restricted(file, source)).toEqual([]);
  });
});

describe("what the process holds comes from the composition root", () => {
  it.each([
    ["app/server/services/probe.server.ts", `const g = globalThis as { x?: number };\ng.x ??= 1;`],
    ["server/probe.ts", `(global as { x?: number }).x = 1;`],
  ])("%s: state on the global object fails", async (file, source) => {
    const [result] = await eslint.lintText(`${source}\nexport const probe = 1;\n`, { filePath: path.join(ROOT, file) });
    const messages = result.messages.filter((m) => m.ruleId === "no-restricted-globals").map((m) => m.message);
    expect(messages).toEqual([expect.stringContaining("server/root.ts")]);
  });
});

describe("routes reach data through services", () => {
  /** The no-restricted-syntax messages ESLint gives this route source. */
  async function syntax(file: string, source: string): Promise<string[]> {
    const [result] = await eslint.lintText(`${source}\nexport const probe = 1;\n`, { filePath: path.join(ROOT, file) });
    return result.messages.filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.message);
  }
  it.each([
    `export async function loader({ context }: { context: never }) { const { api } = requireUser(context); return api.listOrders("u"); }`,
    `export async function action({ context }: { context: never }) { await backendOf(context).signOut(); }`,
  ])("a port call in a route fails: %s", async (source) => {
    const messages = await syntax(
      "app/routes/probe.tsx",
      `import { requireUser, backendOf } from "~/server/context.server";\n${source}`,
    );
    expect(messages).toEqual([expect.stringContaining("through a service")]);
  });
  it("a service call passes", async () => {
    const source = `import { requireUser } from "~/server/context.server";\nimport { shopperOrders } from "~/server/services/orders.server";\nexport async function loader({ context }: { context: never }) { const { user, api } = requireUser(context); return shopperOrders(api, user, { after: null, before: null }); }`;
    expect(await syntax("app/routes/probe.tsx", source)).toEqual([]);
  });
});
