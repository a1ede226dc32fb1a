import type { Route } from "./+types/uploads";
import { answerTus } from "~/server/services/tus.server";

// The tape's resumable upload (tus): /mixer/uploads and each upload's own URL below it. server/app.ts
// lets only tus's methods through, and GET is not one of them.

/** HEAD reads how far an upload got; OPTIONS is tus's discovery (React Router calls the loader for both). */
export const loader = ({ request, context }: Route.LoaderArgs) => answerTus(request, context);

/** POST creates an upload, PATCH appends to it, DELETE cancels it. */
export const action = ({ request, context }: Route.ActionArgs) => answerTus(request, context);
