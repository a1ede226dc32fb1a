import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Every route is known from the first page (docs/decisions/007-route-discovery.md).
  routeDiscovery: { mode: "initial" },
} satisfies Config;
