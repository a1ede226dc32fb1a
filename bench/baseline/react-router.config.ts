import type { Config } from "@react-router/dev/config";

// The framework's floor: a stock React Router 8 app, server-rendered, with the app's route discovery
// (docs/decisions/007-route-discovery.md), so both count a route manifest file as first-visit JS.
export default {
  ssr: true,
  routeDiscovery: { mode: "initial" },
} satisfies Config;
