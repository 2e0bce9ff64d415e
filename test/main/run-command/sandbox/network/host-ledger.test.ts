import { describe, expect, it } from "vitest";
import {
  HostLedger,
  MAX_HOSTS_LISTED,
  OTHER_HOSTS,
} from "../../../../../src/main/run-command/sandbox/network/host-ledger";

const refused = (host: string) =>
  ({
    phase: "refused",
    host,
    port: 443,
    protocol: "connect",
    refusal: "not-allowed",
    bytesUp: 0,
    bytesDown: 0,
  }) as const;

describe("HostLedger", () => {
  it("counts a connection when opened and its bytes when closed, apart from refusals", () => {
    const ledger = new HostLedger();
    const base = { host: "registry.test", port: 443, protocol: "connect", address: "1.2.3.4" } as const;
    ledger.record({ ...base, phase: "opened", bytesUp: 0, bytesDown: 0 });
    ledger.record({ ...base, phase: "closed", bytesUp: 10, bytesDown: 2000 });
    ledger.record(refused("registry.test"));
    expect(ledger.list()).toEqual([
      { host: "registry.test", port: 443, allowed: true, count: 1, bytesUp: 10, bytesDown: 2000 },
      {
        host: "registry.test",
        port: 443,
        allowed: false,
        count: 1,
        bytesUp: 0,
        bytesDown: 0,
        refusal: "not-allowed",
      },
    ]);
    expect(ledger.refusedLine()).toMatch(
      /^Network: the sandbox refused connections to registry\.test:443 \(not allowed\)\./,
    );
  });

  it("lists at most a hundred hosts and counts the rest together", () => {
    const ledger = new HostLedger();
    for (let i = 0; i < MAX_HOSTS_LISTED + 50; i++) ledger.record(refused(`h${i}.test`));
    const list = ledger.list();
    expect(list).toHaveLength(MAX_HOSTS_LISTED + 1);
    expect(list.at(-1)).toMatchObject({ host: OTHER_HOSTS, count: 50 });
    expect(ledger.refusedLine()).toContain("93 more");
  });

  it("says nothing when nothing was refused", () => {
    expect(new HostLedger().refusedLine()).toBeUndefined();
  });
});
