// Test environment for the contract suite. Import this FIRST in every contract test
// file: the cookie storages read getConfig() (SESSION_SECRET, DATA_DIR) on first use,
// so both must be set before any adapter builds a cookie.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

export const TEST_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-contract-"));

process.env.SESSION_SECRET = "contract-test-secret-0123456789-abcdefghijklmnop";
process.env.DATA_DIR = TEST_DATA_DIR;
// The adapters are built by hand in these tests; make sure nothing picks a remote backend.
delete process.env.SUPABASE_URL;
delete process.env.SUPABASE_ANON_KEY;
delete process.env.DATABASE_URL;
delete process.env.SMTP_URL;

// Registered at the root of the importing test file: runs after all its suites.
afterAll(() => fs.rmSync(TEST_DATA_DIR, { recursive: true, force: true }));
