// What each body-reading endpoint is sent by tests/system/faults.test.ts: a body it would read
// (to cut off mid-way or send slowly), and the malformed ones. Forms post urlencoded, the webhooks
// signed JSON, the tape's plain form multipart with a real audio file, tus its own binary bodies.
import crypto from "node:crypto";
import { DROP_COPY } from "~/domain/copy-orders";
import type { PaymentProvider } from "~/domain/orders";
import { signed } from "../../support/webhook-signers";
import type { RawRequest } from "./wire";

/** A body it cannot read; `says`: what the mixer's answer says (an upload's own words). */
export type Malformed = { name: string; request: RawRequest; contentLength?: number; says?: string };

export type Endpoint = {
  name: string;
  /** The request with its whole body, headers for the sender (a cookie or none). */
  whole(headers: Record<string, string>): RawRequest;
  /** Bodies it cannot read: each must be a 4xx. A shorter Content-Length than the body sends extra bytes. */
  malformed(headers: Record<string, string>): Malformed[];
};

const FORM = "application/x-www-form-urlencoded";
/** Bytes no form, JSON or audio reads as one: NULs, stray % and =, invalid UTF-8, a CRLF. */
const GARBAGE = Buffer.from([0, 0x25, 0xff, 0xfe, 0x3d, 0x26, 0xc3, 0x28, 0x0d, 0x0a, 0x25, 0x5a, 0x5a, 0x80, 0x3d, 0x3d]);
const garbage = (times = 64) => Buffer.concat(Array.from({ length: times }, () => GARBAGE));

/** A form of the app (any action of its routes reads urlencoded), a few kilobytes long so a cut falls inside it. */
export function formEndpoint(path: string, origin: string): Endpoint {
  const post = (headers: Record<string, string>, body: Buffer, type = FORM): RawRequest => ({
    method: "POST",
    path,
    headers: { origin, accept: "text/html", "content-type": type, ...headers },
    body,
  });
  return {
    name: `POST ${path}`,
    whole: (headers) => post(headers, Buffer.from(`intent=message&body=${"a".repeat(4000)}&note=${"b".repeat(2000)}`)),
    malformed: (headers) => [
      { name: "garbage", request: post(headers, garbage()) },
      {
        name: "longer than its length",
        request: post(headers, Buffer.from("intent=add&songId=4GET / HTTP/1.1\r\n\r\n")),
        contentLength: 18,
      },
      {
        name: "multipart without a boundary",
        request: post(headers, Buffer.from("--x\r\n\r\n--x--\r\n"), "multipart/form-data"),
      },
    ],
  };
}

/** A checkout's webhook: JSON signed as its provider signs (a cut or slow body is signed whole). */
export function webhookEndpoint(provider: PaymentProvider): Endpoint {
  const path = `/webhooks/${provider}`;
  const post = (headers: Record<string, string>, body: Buffer): RawRequest => ({
    method: "POST",
    path,
    headers: { "content-type": "application/json", ...headers, ...signed(provider, body) },
    body,
  });
  const event = Buffer.from(
    JSON.stringify({
      id: `evt_${crypto.randomUUID()}`,
      type: "payment_intent.created",
      data: { object: { pad: "x".repeat(3000) } },
    }),
  );
  return {
    name: `POST ${path}`,
    whole: (headers) => post(headers, event),
    malformed: (headers) => [
      { name: "signed garbage", request: post(headers, garbage()) },
      { name: "signed, JSON cut short", request: post(headers, event.subarray(0, 100)) },
    ],
  };
}

/** The tape's plain form (no JavaScript): multipart with a real audio file in the field "tape". */
export function uploadFormEndpoint(path: string, origin: string, audio: Buffer): Endpoint {
  const part = (boundary: string, headerLines: string) =>
    Buffer.concat([Buffer.from(`--${boundary}\r\n${headerLines}\r\n\r\n`), audio, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const disposition = 'Content-Disposition: form-data; name="tape"; filename="mix.wav"\r\nContent-Type: audio/wav';
  const post = (headers: Record<string, string>, type: string, body: Buffer): RawRequest => ({
    method: "POST",
    path,
    headers: { origin, accept: "text/html", "content-type": type, ...headers },
    body,
  });
  const whole = part("tapeboundary", disposition);
  return {
    name: `POST ${path} (the tape's plain form)`,
    whole: (headers) => post(headers, "multipart/form-data; boundary=tapeboundary", whole),
    malformed: (headers) => [
      { name: "no boundary", request: post(headers, "multipart/form-data", whole), says: DROP_COPY.unreadable },
      {
        name: "another boundary",
        request: post(headers, "multipart/form-data; boundary=elsewhere", whole),
        says: DROP_COPY.unreadable,
      },
      {
        name: "a part header without a colon",
        says: DROP_COPY.unreadable,
        request: post(
          headers,
          "multipart/form-data; boundary=tapeboundary",
          part("tapeboundary", "Content-Disposition form-data"),
        ),
      },
      {
        name: "no closing boundary",
        says: DROP_COPY.unreadable,
        request: post(
          headers,
          "multipart/form-data; boundary=tapeboundary",
          whole.subarray(0, whole.length - "\r\n--tapeboundary--\r\n".length),
        ),
      },
    ],
  };
}

const b64 = (text: string) => Buffer.from(text).toString("base64");
const TUS = { "tus-resumable": "1.0.0" };

/** tus creation with its first bytes (creation-with-upload): the whole file in the POST. */
export function tusCreateEndpoint(origin: string, code: string, audio: Buffer): Endpoint {
  const post = (headers: Record<string, string>, extra: Record<string, string>, body: Buffer): RawRequest => ({
    method: "POST",
    path: "/mixer/uploads",
    headers: {
      origin,
      ...TUS,
      "upload-length": String(audio.length),
      "upload-metadata": `code ${b64(code)},filename ${b64("mix.wav")}`,
      "content-type": "application/offset+octet-stream",
      ...headers,
      ...extra,
    },
    body,
  });
  return {
    name: "POST /mixer/uploads (tus creation with upload)",
    whole: (headers) => post(headers, {}, audio),
    malformed: (headers) => [
      { name: "metadata that is not base64 pairs", request: post(headers, { "upload-metadata": "code !!!,,filename" }, audio) },
      { name: "a negative length", request: post(headers, { "upload-length": "-1" }, audio) },
      { name: "a length that is not a number", request: post(headers, { "upload-length": "many" }, audio) },
    ],
  };
}

/** tus PATCH of an upload created for it (`url()` creates one as the mixer). */
export function tusPatchEndpoint(
  origin: string,
  url: () => Promise<string>,
  audio: Buffer,
): Endpoint & { ready(): Promise<void> } {
  let target = "";
  const patch = (headers: Record<string, string>, extra: Record<string, string>, body: Buffer): RawRequest => ({
    method: "PATCH",
    path: target,
    headers: { origin, ...TUS, "upload-offset": "0", "content-type": "application/offset+octet-stream", ...headers, ...extra },
    body,
  });
  return {
    name: "PATCH /mixer/uploads/{id} (tus)",
    ready: async () => void (target = await url()),
    whole: (headers) => patch(headers, {}, audio),
    malformed: (headers) => [
      { name: "an offset that is not a number", request: patch(headers, { "upload-offset": "zero" }, audio) },
      { name: "bytes of another type", request: patch(headers, { "content-type": "application/json" }, audio) },
      {
        name: "more bytes than the upload's length",
        request: patch(headers, {}, Buffer.concat([audio, audio])),
        says: DROP_COPY.beyondLength,
      },
    ],
  };
}

/** A part of a catalogue form: a field, or a file with its name and type. */
export type FormPart = { name: string; value: string } | { name: string; file: Buffer; fileName: string; type: string };

/**
 * A catalogue form without JavaScript (or its one upload with it): multipart with real files, the way
 * a browser sends it; `says`: what the mixer's answer to an unreadable one says.
 */
export function catalogueFormEndpoint(path: string, origin: string, parts: FormPart[], says?: string): Endpoint {
  const body = (boundary: string, firstHeader?: string) =>
    Buffer.concat([
      ...parts.flatMap((part, i) => {
        const disposition =
          i === 0 && firstHeader !== undefined
            ? firstHeader
            : "file" in part
              ? `Content-Disposition: form-data; name="${part.name}"; filename="${part.fileName}"\r\nContent-Type: ${part.type}`
              : `Content-Disposition: form-data; name="${part.name}"`;
        return [
          Buffer.from(`--${boundary}\r\n${disposition}\r\n\r\n`),
          "file" in part ? part.file : Buffer.from(part.value),
          Buffer.from("\r\n"),
        ];
      }),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
  const post = (headers: Record<string, string>, type: string, bytes: Buffer): RawRequest => ({
    method: "POST",
    path,
    headers: { origin, accept: "text/html", "content-type": type, ...headers },
    body: bytes,
  });
  const whole = body("catalogueboundary");
  const type = "multipart/form-data; boundary=catalogueboundary";
  return {
    name: `POST ${path} (multipart)`,
    whole: (headers) => post(headers, type, whole),
    malformed: (headers) => [
      { name: "no boundary", request: post(headers, "multipart/form-data", whole), says },
      { name: "another boundary", request: post(headers, "multipart/form-data; boundary=elsewhere", whole), says },
      {
        name: "a part header without a colon",
        request: post(headers, type, body("catalogueboundary", "Content-Disposition form-data")),
        says,
      },
      {
        // Every part arrives whole, its boundary after it; only the form's end ("--") is missing.
        name: "no closing boundary",
        request: post(headers, type, whole.subarray(0, whole.length - "--\r\n".length)),
        says,
      },
    ],
  };
}
