// s3rver 3.7.1 ships no types: what tests/support/storage-adapters.ts uses of it.
declare module "s3rver" {
  import type { AddressInfo } from "node:net";
  export default class S3rver {
    constructor(options: { port?: number; address?: string; silent?: boolean; directory: string });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
