import { createCookieSessionStorage, data } from "react-router";
import type { Route } from "./+types/home";

// One signed cookie session, read on every request; written only when it is new.
const storage = createCookieSessionStorage({
  cookie: {
    name: "baseline-session",
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 60 * 60 * 24,
    secrets: [process.env.SESSION_SECRET ?? "baseline-secret-0123456789abcdef"],
  },
});

export const meta: Route.MetaFunction = () => [{ title: "Baseline" }];

export async function loader({ request }: Route.LoaderArgs) {
  const session = await storage.getSession(request.headers.get("Cookie"));
  let visitor = session.get("visitor") as string | undefined;
  if (visitor) return { visitor };
  visitor = crypto.randomUUID();
  session.set("visitor", visitor);
  return data({ visitor }, { headers: { "Set-Cookie": await storage.commitSession(session) } });
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <main>
      <h1>Baseline</h1>
      <p>
        Visitor <span data-testid="visitor">{loaderData.visitor}</span>
      </p>
    </main>
  );
}
