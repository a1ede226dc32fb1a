// The specification's words where the specification puts them: each string in the element
// that shows it, on the pages the production server renders without JavaScript (the
// browser tests see the same markup hydrated). A typo in the copy, or a string moved to
// the wrong place, fails here.
import { beforeAll, describe, expect, it } from "vitest";
import { Client, htmlText, PASSWORD, suiteServer } from "./setup";

const SHOPPER = { username: "copy_reader", email: "copy.reader@example.com" };
const MIXER_NAME = "DJ Kai";

/** The page's markup with React's text separators gone and entities decoded; scripts left out. */
const markup = (html: string) => htmlText(html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, ""));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The text as the whole content of a `tag` element (its attributes aside). */
const inElement = (tag: string, text: string) => new RegExp(`<${tag}\\b[^>]*>\\s*${escape(text)}\\s*</${tag}>`);
/** The text as an attribute's value. */
const inAttribute = (name: string, text: string) => new RegExp(`\\b${name}="${escape(text)}"`);

describe("the specification's copy, where it is shown", () => {
  const server = suiteServer("spec-copy", {
    shoppers: [SHOPPER],
    env: { MIXER_NAME, CHECKOUT_URL: "https://pay.example/checkout" },
  });
  let shopper: Client;

  beforeAll(() => {
    shopper = new Client(server.url);
  });

  it("/auth (section 2): the heading, the fields, the button and the toggle in each mode", async () => {
    const login = markup((await new Client(server.url).get("/auth")).body);
    expect(login).toMatch(inElement("h1", "REBEL LOGIN"));
    expect(login).toMatch(inElement("label", "Email or Username"));
    expect(login).toMatch(inElement("button", "Login"));
    const signup = markup((await new Client(server.url).get("/auth?mode=signup")).body);
    expect(signup).toMatch(inElement("h1", "SIGN UP"));
    expect(signup).toMatch(inElement("button", "Sign Up"));
    expect(signup).not.toContain("Email or Username");
  });

  it("/auth (sections 5 and 8): the validation messages in the red box, and the sign-in toast", async () => {
    const client = new Client(server.url);
    const empty = markup((await client.post("/auth", { mode: "login", email: "", password: "" })).body);
    expect(empty).toContain("All fields are required.");
    const badEmail = markup(
      (await client.post("/auth?mode=signup", { mode: "signup", username: "copy_new", email: "no-at-sign", password: PASSWORD }))
        .body,
    );
    expect(badEmail).toContain("Please provide a valid email address.");
    const unknown = markup((await client.post("/auth", { mode: "login", email: "nobody_here", password: PASSWORD })).body);
    expect(unknown).toContain("Username not found.");
    expect((await shopper.logIn(SHOPPER.email)).status).toBe(302);
    const home = markup((await shopper.get("/")).body);
    expect(home).toContain("Signed in!");
    expect(home).toContain("Welcome back, rebel.");
  });

  it("/ (sections 2, 8 and 9): the buttons, the carousel, the deck, the hint, the note and the options", async () => {
    const home = markup((await shopper.get("/")).body);
    expect(home).toMatch(inElement("a", "My Mixtapes"));
    expect(home).toMatch(inElement("button", "Logout"));
    expect(home.match(/>Add to Mixtape</g)).toHaveLength(30);
    expect(home).toMatch(inElement("h2", "Choose Your Cover Design"));
    expect(home).toContain("Tracks Loaded: 0 / 10");
    expect(home).toContain(
      `Choose your favorite tracks. Place your order and ${MIXER_NAME} will mix your virtual tape and send it to you!`,
    );
    expect(home).toMatch(inElement("label", `Message to ${MIXER_NAME} (Special instructions)`));
    expect(home).toMatch(inAttribute("placeholder", "The System can't stop your signal..."));
    for (const label of [`Add ${MIXER_NAME} voice`, "Include Custom Intro", "Add cassette noise"]) expect(home).toContain(label);
    expect(home).toContain("No.");
  });

  it("the review (sections 2 and 9): no design, the total, the delivery and the three steps", async () => {
    expect((await shopper.post("/", { intent: "add", songId: "9" })).status).toBe(303);
    const review = markup((await shopper.get("/review")).body);
    expect(review).toContain("No Design");
    expect(review).toContain("$10+");
    expect(review).toContain("3–5 days");
    expect(review).toMatch(inElement("button", "Generate Order Code"));
    expect(review).toMatch(inElement("button", "Transmit Order"));
    expect(review).toContain("Pay now");
    expect((await shopper.post("/review", { intent: "generate-code" })).status).toBe(303);
    expect(markup((await shopper.get("/review")).body)).toMatch(inElement("button", "Regenerate Order Code"));
  });

  it("/my-mixtapes and an unknown page (section 2)", async () => {
    const orders = markup((await shopper.get("/my-mixtapes")).body);
    expect(orders).toContain("No mixtape orders found. Go make your first order!");
    expect(orders).toMatch(inElement("a", "Back to Home"));
    const missing = await shopper.get("/no-such-page");
    expect(missing.status).toBe(404);
    expect(markup(missing.body)).toContain("Oops! Page not found");
    // An order that is not theirs: the page's title is the error's, not the order's.
    const notYours = await shopper.get("/my-mixtapes/ZZZZ9999");
    expect(notYours.status).toBe(404);
    expect([...notYours.body.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1])).toEqual(["Oops! Page not found"]);
  });
});
