// The hostile requests refused before any action: paths without one, methods, encodings,
// sizes and cross-site requests (tests/system/hostile.test.ts).
import { COPY } from "~/domain/copy";
import { PASSWORD } from "../setup";
import { REFUSED, type Case } from "./case";

function multipartWithFile(): FormData {
  const form = new FormData();
  form.set("intent", "add");
  form.set("songId", new Blob(["4"], { type: "application/octet-stream" }), "song.bin");
  return form;
}

export const requestCases: Case[] = [
  // ---- paths without an action ---------------------------------------------------------
  {
    name: "POST to an unknown path",
    as: "A",
    path: "/admin/orders",
    raw: "intent=add&songId=4",
    status: 404,
    message: COPY.errors.notFound,
  },
  { name: "POST to /healthz", as: "A", path: "/healthz", raw: "x=1", status: 405 },
  {
    // My Mixtapes takes one form (a shopper's cancel): any other intent is refused.
    name: "POST to /my-mixtapes with another form's intent",
    as: "A",
    path: "/my-mixtapes",
    raw: "intent=transmit",
    status: 400,
    message: COPY.errors.unknownIntent,
  },
  {
    name: "POST to /auth/confirm",
    as: "anon",
    path: "/auth/confirm?token_hash=x&type=signup",
    raw: "x=1",
    status: 405,
    message: COPY.errors.badRequest,
  },
  {
    name: "POST to the index route",
    as: "A",
    path: "/?index",
    raw: "intent=add&songId=4",
    status: 405,
    message: COPY.errors.badRequest,
  },

  // ---- methods, encodings and sizes (refused before the app) ------------------------------
  {
    name: "PUT a deck intent",
    as: "A",
    method: "PUT",
    path: "/",
    raw: "intent=add&songId=4",
    status: 405,
    message: "This method is not allowed here",
  },
  {
    name: "DELETE the review",
    as: "A",
    method: "DELETE",
    path: "/review",
    raw: ({ pendingA }) => `intent=transmit&code=${pendingA}`,
    status: 405,
    message: "This method is not allowed here",
  },
  {
    name: "PATCH the options",
    as: "A",
    method: "PATCH",
    path: "/",
    raw: "intent=options&note=patched",
    status: 405,
    message: "This method is not allowed here",
  },
  { name: "multipart with a file", as: "A", path: "/", body: multipartWithFile(), status: 415, message: REFUSED.unsupported },
  {
    name: "JSON body",
    as: "A",
    path: "/",
    body: '{"intent":"add","songId":"4"}',
    headers: { "content-type": "application/json" },
    status: 415,
    message: REFUSED.unsupported,
  },
  {
    name: "text/plain body",
    as: "A",
    path: "/auth",
    body: "mode=login",
    headers: { "content-type": "text/plain" },
    status: 415,
    message: REFUSED.unsupported,
  },
  { name: "no content type, no body", as: "A", path: "/logout", status: 415, message: REFUSED.unsupported },
  {
    name: "body over the 16 KB limit",
    as: "A",
    path: "/",
    raw: `intent=options&note=${"y".repeat(17 * 1024)}`,
    status: 413,
    message: REFUSED.tooLarge,
  },
  {
    name: "body over the limit on /auth",
    as: "anon",
    path: "/auth",
    raw: `mode=login&email=a%40b.co&password=${"y".repeat(64 * 1024)}`,
    status: 413,
    message: REFUSED.tooLarge,
  },

  // ---- cross-site requests -----------------------------------------------------------------
  {
    name: "cross-site Origin: add",
    as: "A",
    path: "/",
    raw: "intent=add&songId=4",
    headers: { origin: "https://evil.example" },
    status: 403,
    message: REFUSED.crossSite,
  },
  {
    name: "Sec-Fetch-Site cross-site: transmit",
    as: "A",
    path: "/review",
    raw: ({ pendingA }) => `intent=transmit&code=${pendingA}`,
    headers: { "sec-fetch-site": "cross-site" },
    status: 403,
    message: REFUSED.crossSite,
  },
  {
    name: "Sec-Fetch-Site same-site: options",
    as: "A",
    path: "/",
    raw: "intent=options&note=pwned",
    headers: { "sec-fetch-site": "same-site" },
    status: 403,
    message: REFUSED.crossSite,
  },
  {
    name: "Origin null: logout",
    as: "A",
    path: "/logout",
    raw: "",
    headers: { origin: "null" },
    status: 403,
    message: REFUSED.crossSite,
  },
  {
    name: "cross-site Origin: login",
    as: "anon",
    path: "/auth",
    raw: `mode=login&email=hostile.a%40example.com&password=${PASSWORD}`,
    headers: { origin: "http://evil.example" },
    status: 403,
    message: REFUSED.crossSite,
  },
  {
    name: "Origin on another port",
    as: "A",
    path: "/",
    raw: "intent=remove&songId=3",
    headers: { origin: "http://127.0.0.1:1" },
    status: 403,
    message: REFUSED.crossSite,
  },
];
