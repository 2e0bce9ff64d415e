import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { calls } from "../core/host-harness";

/**
 * Electron's safeStorage cannot run here (no Electron binary, no desktop keychain), so it is the one
 * thing stood in: AES-256-GCM under a key only this "keychain" holds, as the OS keychain holds
 * Electron's. Everything around it (the file, the lock, the atomic write, the host) is real.
 */
const keychain = vi.hoisted(() => ({ available: true, key: Buffer.alloc(0) }));
vi.mock("electron", () => ({
  safeStorage: {
    isEncryptionAvailable: () => keychain.available,
    encryptString: (text: string) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", keychain.key, iv);
      const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
    },
    decryptString: (data: Buffer) => {
      const decipher = createDecipheriv("aes-256-gcm", keychain.key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString("utf8");
    },
  },
}));

const { createKeychainSecretStore } = await import("../../../src/main/electron/keychain-secrets");
const { startRealProviderHost } = await import("../core/real-provider-host");
const { assistantSaid } = await import("../core/host-harness");

const KEY = "sk-local-typed-4b7e1c9d2a";
const OTHER = "sk-other-provider-0f3c88";
let dir: string;
let file: string;

beforeEach(() => {
  keychain.available = true;
  keychain.key = randomBytes(32);
  dir = mkdtempSync(join(tmpdir(), "pi-desk-keychain-"));
  file = join(dir, "api-keys.json");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Whether the file holds the key in any plain spelling: as is, or base64 of it. */
function holdsInPlain(text: string, key: string): boolean {
  return text.includes(key) || text.includes(Buffer.from(key).toString("base64"));
}

describe("the keychain secret store", () => {
  it("keeps keys as ciphertext only, and a new store on the same file reads them back", async () => {
    await createKeychainSecretStore(file).save("local", KEY);
    const text = readFileSync(file, "utf8");
    expect(holdsInPlain(text, KEY)).toBe(false);
    expect(Object.keys(JSON.parse(text))).toEqual(["local"]);
    expect(await createKeychainSecretStore(file).load()).toEqual({ local: KEY });
  });

  it("keeps both of two keys saved at once", async () => {
    const store = createKeychainSecretStore(file);
    await Promise.all([store.save("local", KEY), store.save("other", OTHER)]);
    expect(await createKeychainSecretStore(file).load()).toEqual({ local: KEY, other: OTHER });
  });

  it("starts without a key another keychain sealed, or a keys file it did not write, and keeps the rest", async () => {
    const store = createKeychainSecretStore(file);
    await store.save("local", KEY);
    keychain.key = randomBytes(32); // the file was sealed under another machine's keychain
    await store.save("other", OTHER);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await createKeychainSecretStore(file).load()).toEqual({ other: OTHER });
    expect(warn.mock.calls.flat().join(" ")).toContain("the saved key for local cannot be opened");
    writeFileSync(file, "not json");
    expect(await createKeychainSecretStore(file).load()).toEqual({});
    warn.mockRestore();
  });

  it("without a keychain, refuses to keep a key, says what to do, and writes nothing", async () => {
    keychain.available = false;
    await expect(createKeychainSecretStore(file).save("local", KEY)).rejects.toThrow(
      /works for this run, but the OS keychain is not available.*environment variable/,
    );
    expect(existsSync(file)).toBe(false);
    expect(await createKeychainSecretStore(file).load()).toEqual({});
  });
});

describe("the host with the keychain store, on Pi's real provider path", () => {
  it("keeps a typed key across a restart, sealed, and the provider gets it after the restart", async () => {
    const real = await startRealProviderHost(() => ({ text: "Hello." }), {
      secrets: createKeychainSecretStore(file),
    });
    await real.host.handlers.setApiKey({ provider: "local", key: KEY });
    expect(holdsInPlain(readFileSync(file, "utf8"), KEY)).toBe(false);

    const host = await real.restart({ secrets: createKeychainSecretStore(file) });
    expect(host.state().models.options.find((model) => model.provider === "local")?.hasKey).toBe(true);
    await calls(host).setModel({ provider: "local", id: "m1" });
    await calls(host).prompt({ text: "Hi" });
    await assistantSaid(host, "Hello.");
    expect(real.server.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
  });
});
