// The S3 adapter's sweep of abandoned multipart uploads, against a stub client: the contract's
// local S3 server (fauxqs) always lists none, so what the adapter asks and does with the answer
// is checked here.
import { AbortMultipartUploadCommand, ListMultipartUploadsCommand, type S3Client } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { createS3Storage } from "~/server/storage/s3.server";

const hours = (h: number) => new Date(Date.now() - h * 60 * 60 * 1000);

function stubClient(pages: object[]) {
  const sent: { name: string; input: Record<string, unknown> }[] = [];
  const client = {
    async send(command: { constructor: { name: string }; input: Record<string, unknown> }) {
      sent.push({ name: command.constructor.name, input: command.input });
      if (command instanceof ListMultipartUploadsCommand) return pages.shift();
      if (command instanceof AbortMultipartUploadCommand && command.input.UploadId === "gone")
        throw Object.assign(new Error("NoSuchUpload"), { name: "NoSuchUpload", $metadata: { httpStatusCode: 404 } });
      return {};
    },
  };
  return { client: client as unknown as S3Client, sent };
}

describe("S3: partial uploads", () => {
  it("lists the multipart uploads started before the cutoff, page by page, and aborts each by key and upload id", async () => {
    const { client, sent } = stubClient([
      {
        IsTruncated: true,
        NextKeyMarker: "orders/B/tape.mp3",
        NextUploadIdMarker: "u2",
        Uploads: [
          { Key: "orders/A/tape.mp3", UploadId: "u1", Initiated: hours(30) },
          { Key: "orders/B/tape.mp3", UploadId: "u2", Initiated: hours(1) },
        ],
      },
      { IsTruncated: false, Uploads: [{ Key: "orders/C/tape.flac", UploadId: "u3", Initiated: hours(25) }] },
    ]);
    const storage = createS3Storage({ bucket: "tapes", region: "us-east-1", forcePathStyle: true, client });
    const old = await storage.partials(hours(24));
    expect(old.map((p) => p.key)).toEqual(["orders/A/tape.mp3", "orders/C/tape.flac"]);
    expect(sent.map((s) => s.input)).toEqual([
      { Bucket: "tapes", KeyMarker: undefined, UploadIdMarker: undefined },
      { Bucket: "tapes", KeyMarker: "orders/B/tape.mp3", UploadIdMarker: "u2" },
    ]);

    await storage.dropPartial(old[1].id);
    expect(sent.at(-1)).toEqual({
      name: "AbortMultipartUploadCommand",
      input: { Bucket: "tapes", Key: "orders/C/tape.flac", UploadId: "u3" },
    });
  });

  it("an upload already gone is fine; an id that is not one of ours is refused", async () => {
    const { client } = stubClient([
      { IsTruncated: false, Uploads: [{ Key: "orders/A/tape.mp3", UploadId: "gone", Initiated: hours(30) }] },
    ]);
    const storage = createS3Storage({ bucket: "tapes", region: "us-east-1", forcePathStyle: true, client });
    const [partial] = await storage.partials(hours(24));
    await storage.dropPartial(partial.id);
    await expect(storage.dropPartial("not-an-id")).rejects.toMatchObject({ code: "key" });
  });
});
