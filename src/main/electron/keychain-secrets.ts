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
    try {
      const stored: unknown = JSON.parse(text);
      if (typeof stored === "object" && stored !== null && !Array.isArray(stored)) {
        return Object.fromEntries(Object.entries(stored).filter(([, sealed]) => typeof sealed === "string"));
      }
    } catch {
      // Reported below: a file that is not JSON holds no key anyone can use.
    }
    console.warn(
      `Pi Desk: ${file} is not a keys file Pi Desk wrote; its keys are ignored. Type them again in the app.`,
    );
    return {};
  };
  return {
    load: async () => {
      if (!safeStorage.isEncryptionAvailable()) return {};
      const stored = await read();
      // A key sealed by another keychain (a restored backup, another user) cannot be opened: the app starts
      // without it, and says which to type again, rather than not start at all.
      const keys: Record<string, string> = {};
      for (const [provider, sealed] of Object.entries(stored)) {
        try {
          keys[provider] = safeStorage.decryptString(Buffer.from(sealed, "base64"));
        } catch {
          console.warn(
            `Pi Desk: the saved key for ${provider} cannot be opened with this machine's keychain; type it again in the app.`,
          );
        }
      }
      return keys;
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
