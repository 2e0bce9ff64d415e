import { readFile } from "node:fs/promises";
import { safeStorage } from "electron";
import type { SecretStore } from "../core/desk-host";
import { withFileLock, writeFileAtomic } from "../storage/atomic-file";

/**
 * API keys kept with the OS keychain through Electron's safeStorage: the file holds only ciphertext that
 * the keychain's key decrypts, so the app never writes a key in plain text. Where no keychain is
 * available (some Linux desktops), keys are refused here and live in memory for the run only.
 */
export function createKeychainSecretStore(file: string): SecretStore {
  const read = async (): Promise<Record<string, string>> => {
    const text = await readFile(file, "utf8").catch(() => "{}");
    return JSON.parse(text) as Record<string, string>;
  };
  return {
    load: async () => {
      if (!safeStorage.isEncryptionAvailable()) return {};
      const stored = await read();
      return Object.fromEntries(
        Object.entries(stored).map(([provider, sealed]) => [
          provider,
          safeStorage.decryptString(Buffer.from(sealed, "base64")),
        ]),
      );
    },
    save: async (provider, key) => {
      if (!safeStorage.isEncryptionAvailable()) {
        throw new Error(
          "The key works for this run, but the OS keychain is not available to keep it; set the provider's " +
            "environment variable (e.g. ANTHROPIC_API_KEY) to keep it across restarts.",
        );
      }
      // Queued and atomic: two keys saved at once both land, and a crash leaves the old file or the new.
      await withFileLock(file, async () => {
        const stored = await read();
        stored[provider] = safeStorage.encryptString(key).toString("base64");
        await writeFileAtomic(file, JSON.stringify(stored));
      });
    },
  };
}
