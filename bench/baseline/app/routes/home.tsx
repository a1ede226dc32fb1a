import { createCookieSessionStorage, data, redirect } from "react-router";
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

// The stock form POST (the floor of the app's transmit and webhooks): the session read, the form
// parsed, one value kept in the session, and the redirect that answers a form.
export async function action({ request }: Route.ActionArgs) {
  const session = await storage.getSession(request.headers.get("Cookie"));
  const form = await request.formData();
  session.set("note", String(form.get("note") ?? "").slice(0, 200));
  return redirect("/", { status: 303, headers: { "Set-Cookie": await storage.commitSession(session) } });
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
