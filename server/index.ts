// The production entry (`npm start`; Vite builds this file into build/server/index.js).
// It only sets the environment: a bundle's static imports load before its own code runs,
// and React reads NODE_ENV when it loads, so everything else comes in by dynamic import.
import "./load-env";

await import("./main");
