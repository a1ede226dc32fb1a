import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// No Tailwind, no extras: only the React Router plugin. Modules resolve from the
// repository's node_modules (the same versions as the app).
export default defineConfig({
  plugins: [reactRouter()],
});
