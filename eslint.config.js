import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The layers of docs/architecture.md ("The layers"): each one's files, and the others it may import
// (`types of x`: only its types). An import of any other layer fails, by the `~/` alias and by
// relative path alike; tests/unit/layers-table.test.ts fails when the table says otherwise.
const SEE = "see docs/architecture.md, The layers";
const LAYERS = {
  domain: ["app/domain/"],
  components: ["app/components/"],
  routes: ["app/routes/", "app/root.tsx", "app/entry.server.tsx", "app/routes.ts"],
  services: ["app/server/services/"],
  backend: ["app/server/backend/"],
  storage: ["app/server/storage/"],
  platform: ["app/server/platform/"],
  context: ["app/server/context.server.ts", "app/server/middleware.server.ts", "app/server/root.server.ts"],
  server: ["server/"],
};
const MAY_IMPORT = {
  components: ["domain"],
  routes: ["domain", "components", "services", "platform", "context", "types of backend"],
  services: ["domain", "backend", "storage", "platform", "context"],
  backend: ["domain", "platform"],
  storage: ["domain", "platform"],
  platform: ["domain", "context"],
  context: ["domain", "services", "backend", "storage", "platform"],
  server: ["domain", "services", "backend", "storage", "platform", "context"],
};
/** A file or folder of app/ as imports name it (`app/server/backend`, `app/root`). */
const moduleOf = (file) => file.replace(/\/$|\.tsx?$/, "");
/** The specifiers that reach it: `~/server/backend…`, and `../backend…`, `./server/backend…`, `../app/server/backend…`. */
const reach = (file) => {
  const parts = moduleOf(file).split("/");
  const tails = parts.map((_, i) => parts.slice(i).join("/"));
  // A bare `./name` is a sibling in the same folder, so the same layer (`app/root.tsx` and server/root.ts differ).
  return [
    `~/${parts.slice(1).join("/")}`,
    ...tails.flatMap((tail) => (tail.includes("/") ? [`**/../${tail}`, `./${tail}`] : [`**/../${tail}`])),
  ];
};
const group = (layer, targets, extra = {}) => ({
  group: [...new Set(targets.flatMap((target) => LAYERS[target].flatMap(reach)))],
  message: `${LAYERS[layer].join(", ")} may import ${MAY_IMPORT[layer].join(", ")}: not ${targets.join(", ")} (${SEE}).`,
  ...extra,
});
/** Each layer's one group of refused imports (and one of those it may take types from). */
const refused = (layer) => {
  const appLayers = Object.keys(LAYERS).filter((name) => name !== layer && LAYERS[name][0].startsWith("app/"));
  const allowed = MAY_IMPORT[layer];
  const never = appLayers.filter((name) => !allowed.includes(name) && !allowed.includes(`types of ${name}`));
  const typesOnly = appLayers.filter((name) => allowed.includes(`types of ${name}`));
  // A component runs in the browser too: no server module, wherever it is.
  const browser = layer === "components" ? { group: [...group(layer, never).group, "*.server"] } : {};
  return [
    ...(never.length ? [group(layer, never, browser)] : []),
    ...(typesOnly.length ? [group(layer, typesOnly, { allowTypeImports: true })] : []),
  ];
};
/** app/domain: nothing but itself (`./x`, `~/domain/x`), and zod in schemas.ts. */
const domain = (zod) => [
  {
    regex: zod ? String.raw`^(?!\./|~/domain/|zod$)` : String.raw`^(?!\./|~/domain/)`,
    message: `app/domain holds pure rules: it imports nothing but itself${zod ? " and zod" : " (zod only in schemas.ts)"} (${SEE}).`,
  },
];
/** Routes parse, call a service and respond: the port's calls live in app/server/services. */
const routePortCalls = {
  files: ["app/routes/**", "app/root.tsx"],
  rules: {
    "no-restricted-syntax": [
      "error",
      {
        selector: "CallExpression > MemberExpression.callee[object.name=/^(api|backend)$/]",
        message: `A route reaches data through a service, never the Backend port's methods (${SEE}).`,
      },
      {
        selector: "CallExpression > MemberExpression.callee > CallExpression.object[callee.name='backendOf']",
        message: `A route reaches data through a service, never the Backend port's methods (${SEE}).`,
      },
    ],
  },
};
/** What the process holds is built once by the composition root (server/root.ts) and handed down, never kept on the global object. */
const noGlobalState = {
  files: ["app/**", "server/**"],
  rules: {
    "no-restricted-globals": [
      "error",
      ...["globalThis", "global"].map((name) => ({
        name,
        message: `The process's one instance of a thing is built by server/root.ts and reaches a request through rootContext (${LAYERS}).`,
      })),
    ],
  },
};
const layers = [
  ...Object.keys(MAY_IMPORT).map((layer) => [LAYERS[layer].map((p) => (p.endsWith("/") ? `${p}**` : p)), refused(layer)]),
  [["app/domain/**"], domain(false)],
  [["app/domain/schemas.ts"], domain(true)],
].map(([files, patterns]) => ({ files, rules: { "no-restricted-imports": ["error", { patterns }] } }));

export default tseslint.config(
  {
    ignores: [
      "build/",
      ".react-router/",
      "node_modules/",
      "bench/baseline/build/",
      "bench/baseline/.react-router/",
      "test-results/",
      "playwright-report/",
      "public/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  jsxA11y.flatConfigs.recommended,
  // React lives in app/ only; the compiler-based hook rules are most of the lint's time elsewhere.
  { ...reactHooks.configs.flat.recommended, files: ["app/**/*.{ts,tsx}"] },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  { files: ["**/*.cjs"], languageOptions: { sourceType: "commonjs" }, rules: { "@typescript-eslint/no-require-imports": "off" } },
  ...layers,
  routePortCalls,
  noGlobalState,
);
