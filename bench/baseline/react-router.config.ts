import type { Config } from "@react-router/dev/config";

// The framework's floor: a stock React Router 7 app, server-rendered.
export default {
  ssr: true,
} satisfies Config;
