// Which Content-Encoding a page goes out with (server/request-handler.ts).
import { describe, expect, it } from "vitest";
import { pickEncoding } from "../../server/request-handler";

describe("pickEncoding: brotli, else gzip, else none", () => {
  it.each([
    ["gzip, deflate, br", "br"],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate", "gzip"],
    ["GZIP", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0.5, gzip;q=0.8", "gzip"],
    ["gzip;q=0.5, br;q=0.5", "br"],
    ["*", "br"],
    ["*;q=0, gzip", "gzip"],
    ["identity", null],
    ["deflate", null],
    ["gzip;q=0", null],
    ["gzip;q=nonsense", null],
    ["", null],
    [undefined, null],
  ])("%j → %j", (header, expected) => expect(pickEncoding(header)).toBe(expected));
});
