import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The layers of docs/architecture.md ("may import"), each folder's forbidden imports by the
// `~/` alias and by relative path (`**/../x/**`: any number of `../`).
const LAYERS = "see docs/architecture.md, The layers";
const notServer = (layer) => ({
  group: ["~/server", "~/server/**", "**/../server", "**/../server/**", "*.server"],
  message: `${layer} runs in the browser too: no server modules (${LAYERS}).`,
});
const notRoutes = (layer) => ({
  group: ["~/routes", "~/routes/**", "~/root", "**/../routes", "**/../routes/**", "**/../root"],
  message: `${layer} may not import route modules (${LAYERS}).`,
});
const notComponents = (layer, extra = {}) => ({
  group: ["~/components", "~/components/**", "**/../components", "**/../components/**"],
  message: `${layer} may not import components (${LAYERS}).`,
  ...extra,
});
/** app/domain: nothing but itself (`./x`, `~/domain/x`), and zod in schemas.ts. */
const domain = (zod) => [
  {
    regex: zod ? String.raw`^(?!\./|~/domain/|zod$)` : String.raw`^(?!\./|~/domain/)`,
    message: `app/domain holds pure rules: it imports nothing but itself${zod ? " and zod" : " (zod only in schemas.ts)"} (${LAYERS}).`,
  },
];
// app/server/platform/toast.server.ts names the toaster's Toast type: a type, erased at build.
const server = [notRoutes("app/server"), notComponents("app/server", { allowTypeImports: true })];
const notServices = (layer) => ({
  group: ["~/server/services", "~/server/services/**", "**/../services", "**/../services/**"],
  message: `${layer} may not import services: services call it (${LAYERS}).`,
});
const notBackend = (layer) => ({
  group: ["~/server/backend", "~/server/backend/**", "**/../backend", "**/../backend/**"],
  message: `${layer} may not import the backend (${LAYERS}).`,
});
const notStorage = (layer) => ({
  group: ["~/server/storage", "~/server/storage/**", "**/../storage", "**/../storage/**"],
  message: `${layer} may not import the storage (${LAYERS}).`,
});
/** Routes parse, call a service and respond: the port's calls live in app/server/services. */
const routePortCalls = {
  files: ["app/routes/**", "app/root.tsx"],
  rules: {
    "no-restricted-syntax": [
      "error",
      {
        selector: "CallExpression > MemberExpression.callee[object.name=/^(api|backend)$/]",
        message: `A route reaches data through a service, never the Backend port's methods (${LAYERS}).`,
      },
      {
        selector: "CallExpression > MemberExpression.callee > CallExpression.object[callee.name='backendOf']",
        message: `A route reaches data through a service, never the Backend port's methods (${LAYERS}).`,
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
  ["app/routes/**", [{ ...notBackend("A route"), allowTypeImports: true }]],
  ["app/root.tsx", [{ ...notBackend("A route"), allowTypeImports: true }]],
  ["app/domain/**", domain(false)],
  ["app/domain/schemas.ts", domain(true)],
  ["app/components/**", [notServer("app/components"), notRoutes("app/components")]],
  ["app/server/**", server],
  [
    "app/server/platform/**",
    [...server, notBackend("app/server/platform"), notServices("app/server/platform"), notStorage("app/server/platform")],
  ],
  ["app/server/backend/**", [...server, notServices("app/server/backend"), notStorage("app/server/backend")]],
  ["app/server/storage/**", [...server, notServices("app/server/storage"), notBackend("app/server/storage")]],
].map(([files, patterns]) => ({ files: [files], rules: { "no-restricted-imports": ["error", { patterns }] } }));

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
  reactHooks.configs.flat.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  { files: ["**/*.cjs"], languageOptions: { sourceType: "commonjs" }, rules: { "@typescript-eslint/no-require-imports": "off" } },
  // Playwright fixtures call `use`, which is not React's.
  { files: ["tests/e2e/**"], rules: { "react-hooks/rules-of-hooks": "off" } },
  ...layers,
  routePortCalls,
  noGlobalState,
);
