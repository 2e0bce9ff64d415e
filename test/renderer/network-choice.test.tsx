import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CommandCard } from "../../src/renderer/src/features/commands/CommandCard";
import { SettingsView } from "../../src/renderer/src/features/settings/SettingsView";
import { I18nProvider } from "../../src/renderer/src/i18n/i18n";
import type { CommandView } from "../../src/shared/commands";
import type { HostState } from "../../src/shared/host-state";
import { fakeApi, hostState, pendingCommand, runningCommand } from "./fixtures";

afterEach(cleanup);

const sandboxed = { sandbox: { enabled: true, network: false } };
const offer = (over: Partial<NonNullable<CommandView["network"]>> = {}) => ({
  network: {
    mode: "hosts" as const,
    allowedHosts: ["registry.npmjs.org"],
    askedHosts: [],
    hostRules: true,
    ...over,
  },
});

function renderCard(command: CommandView, api = fakeApi()) {
  render(<CommandCard command={command} api={api} />);
  return { api, inCard: within(screen.getByTestId("command-card")) };
}

describe("a pending command's network choice", () => {
  it("starts on the workspace's allowed hosts, listed, and approves with the host's default", () => {
    const { api, inCard } = renderCard(pendingCommand({ ...sandboxed, ...offer() }));
    expect(inCard.getByTestId("network-hosts")).toHaveProperty("checked", true);
    expect(inCard.getByTestId("network-hosts-list").textContent).toBe("registry.npmjs.org");
    expect(inCard.queryByTestId("network-local-services")).toBeNull();
    fireEvent.click(inCard.getByTestId("approve-button"));
    expect(api.decide).toHaveBeenCalledWith({ approvalId: "approval-1", decision: { kind: "approve" } });
  });

  it("sends off, or the full network with its warning shown first", () => {
    const { api, inCard } = renderCard(pendingCommand({ ...sandboxed, ...offer() }));
    fireEvent.click(inCard.getByTestId("network-off"));
    fireEvent.click(inCard.getByTestId("approve-button"));
    expect(api.decide).toHaveBeenLastCalledWith({
      approvalId: "approval-1",
      decision: { kind: "approve", network: { mode: "off" } },
    });
    cleanup();
    const full = renderCard(pendingCommand({ ...sandboxed, ...offer() }));
    fireEvent.click(full.inCard.getByTestId("allow-network"));
    expect(full.inCard.getByTestId("network-local-services").textContent).toMatch(/any host on the internet/);
    fireEvent.click(full.inCard.getByTestId("approve-button"));
    expect(full.api.decide).toHaveBeenLastCalledWith({
      approvalId: "approval-1",
      decision: { kind: "approve", network: true },
    });
  });

  it("grants the hosts the agent asked for to this command only when the person says so", () => {
    const command = pendingCommand({
      ...sandboxed,
      ...offer({ mode: "off", allowedHosts: [], askedHosts: ["pypi.org"] }),
    });
    const { api, inCard } = renderCard(command);
    expect(inCard.getByTestId("network-off")).toHaveProperty("checked", true);
    expect(inCard.getByTestId("network-asked").textContent).toContain("pypi.org");
    fireEvent.click(inCard.getByTestId("network-grant"));
    expect(inCard.getByTestId("network-hosts")).toHaveProperty("checked", true);
    expect(inCard.getByTestId("network-hosts-list").textContent).toBe("pypi.org");
    fireEvent.click(inCard.getByTestId("approve-button"));
    expect(api.decide).toHaveBeenCalledWith({
      approvalId: "approval-1",
      decision: { kind: "approve", network: { mode: "hosts", grantedHosts: ["pypi.org"] } },
    });
  });

  it("adds an asked host to the workspace, and grants it to this command too", async () => {
    const command = pendingCommand({ ...sandboxed, ...offer({ askedHosts: ["files.pythonhosted.org"] }) });
    const { api, inCard } = renderCard(command);
    fireEvent.click(inCard.getByTestId("network-add-workspace"));
    expect(api.addAllowedHosts).toHaveBeenCalledWith({ hosts: ["files.pythonhosted.org"] });
    await waitFor(() =>
      expect(inCard.getByTestId("network-add-workspace").textContent).toBe("Added to the workspace"),
    );
    fireEvent.click(inCard.getByTestId("approve-button"));
    expect(api.decide).toHaveBeenCalledWith({
      approvalId: "approval-1",
      decision: { kind: "approve", network: { mode: "hosts", grantedHosts: ["files.pythonhosted.org"] } },
    });
  });

  it("says outside the sandbox that host rules need it, and offers no choice", () => {
    const { inCard } = renderCard(
      pendingCommand({
        sandbox: { enabled: false, network: false },
        ...offer({ mode: "full", hostRules: false }),
      }),
    );
    expect(inCard.getByTestId("network-no-sandbox").textContent).toMatch(/need the sandbox/);
    expect(inCard.queryByTestId("network-choice")).toBeNull();
  });

  it("offers no allowed-hosts mode where host rules cannot apply (another sandbox)", () => {
    const { inCard } = renderCard(
      pendingCommand({ ...sandboxed, ...offer({ mode: "off", hostRules: false }) }),
    );
    expect(inCard.queryByTestId("network-hosts")).toBeNull();
    expect(inCard.getByTestId("network-off")).toHaveProperty("checked", true);
  });
});

describe("the hosts a command reached and was refused", () => {
  const hosts = [
    {
      host: "registry.npmjs.org",
      port: 443,
      allowed: true,
      count: 3,
      bytesUp: 2048,
      bytesDown: 5 * 1024 * 1024,
    },
    {
      host: "evil.example",
      port: 443,
      allowed: false,
      count: 2,
      bytesUp: 0,
      bytesDown: 0,
      refusal: "not-allowed" as const,
    },
    {
      host: "rebind.example",
      port: 80,
      allowed: false,
      count: 1,
      bytesUp: 0,
      bytesDown: 0,
      refusal: "private-address" as const,
    },
  ];

  it("lists them live on a running card, with counts and bytes, and allows a refused name for the workspace", async () => {
    const { api, inCard } = renderCard(runningCommand({ ...sandboxed, hosts }));
    const rows = inCard.getAllByTestId("host-seen");
    expect(rows.map((row) => row.getAttribute("data-host"))).toEqual([
      "registry.npmjs.org",
      "evil.example",
      "rebind.example",
    ]);
    expect(rows[0]?.textContent).toMatch(
      /registry\.npmjs\.org:443 reached 3 connections, 2\.0 KB up, 5\.0 MB down/,
    );
    expect(rows[1]?.textContent).toContain("not in the allowed hosts");
    expect(rows[2]?.textContent).toContain("resolves to this machine or the LAN");
    // Only the name refused for not being listed can be allowed; a rebinding one cannot.
    expect(within(rows[2] as HTMLElement).queryByTestId("host-allow-workspace")).toBeNull();
    fireEvent.click(within(rows[1] as HTMLElement).getByTestId("host-allow-workspace"));
    expect(api.addAllowedHosts).toHaveBeenCalledWith({ hosts: ["evil.example"] });
    await waitFor(() =>
      expect(inCard.getByTestId("host-allowed-for-workspace").textContent).toMatch(/next command/),
    );
  });

  it("keeps them on the finished card, from the command's record", () => {
    const { inCard } = renderCard(
      runningCommand({
        ...sandboxed,
        phase: "succeeded",
        details: {
          status: "succeeded",
          exitCode: 0,
          durationMs: 10,
          hosts: hosts.slice(0, 1),
        } as CommandView["details"],
      }),
    );
    expect(inCard.getAllByTestId("host-seen")).toHaveLength(1);
  });
});

describe("Settings: the allowed hosts", () => {
  const withHosts = (allowedHosts: string[]): HostState => {
    const host = hostState();
    return {
      ...host,
      limits: host.limits && { ...host.limits, sandbox: { ...host.limits.sandbox, allowedHosts } },
    };
  };

  it("lists them, removes one, adds one, and adds a preset in one click", async () => {
    const api = fakeApi();
    render(<SettingsView host={withHosts(["registry.npmjs.org", "example.org"])} api={api} />);
    const section = within(screen.getByTestId("allowed-hosts"));
    expect(section.getAllByTestId("allowed-host").map((li) => li.getAttribute("data-host"))).toEqual([
      "registry.npmjs.org",
      "example.org",
    ]);
    fireEvent.click(section.getAllByTestId("allowed-host-remove")[1] as HTMLElement);
    expect(api.setAllowedHosts).toHaveBeenLastCalledWith({ hosts: ["registry.npmjs.org"] });
    // One change at a time: the next waits until the host answered this one.
    await waitFor(() => expect(section.getByTestId("host-preset-go")).toHaveProperty("disabled", false));
    fireEvent.change(section.getByTestId("allowed-host-input"), { target: { value: "crates.io" } });
    fireEvent.click(section.getByTestId("allowed-host-add"));
    expect(api.setAllowedHosts).toHaveBeenLastCalledWith({
      hosts: ["registry.npmjs.org", "example.org", "crates.io"],
    });
    await waitFor(() => expect(section.getByTestId("host-preset-go")).toHaveProperty("disabled", false));
    fireEvent.click(section.getByTestId("host-preset-github"));
    expect(api.setAllowedHosts).toHaveBeenLastCalledWith({
      hosts: [
        "registry.npmjs.org",
        "example.org",
        "github.com",
        "codeload.github.com",
        "*.githubusercontent.com",
      ],
    });
    // A preset already all there has nothing to add.
    expect(section.getByTestId("host-preset-npm")).toHaveProperty("disabled", true);
  });

  it("shows why an entry was refused, in the page's words, and says host rules need the sandbox", async () => {
    const api = fakeApi({ setAllowedHosts: vi.fn(async () => refused) });
    const host = withHosts([]);
    const off: HostState = {
      ...host,
      limits: host.limits && { ...host.limits, sandbox: { ...host.limits.sandbox, enabled: false } },
    };
    render(<SettingsView host={off} api={api} />);
    const section = within(screen.getByTestId("allowed-hosts"));
    expect(section.getByTestId("allowed-hosts-needs-sandbox").textContent).toMatch(/bubblewrap/);
    fireEvent.change(section.getByTestId("allowed-host-input"), { target: { value: "*.com" } });
    fireEvent.click(section.getByTestId("allowed-host-add"));
    await waitFor(() =>
      expect(section.getByTestId("allowed-hosts-error").textContent).toBe(
        'Not saved: "*.com" cannot be an allowed host: *.com would allow every site under the public suffix ' +
          "com. Name the hosts instead. Correct or remove that entry and try again.",
      ),
    );
    // The typed entry stays, to correct it.
    expect(section.getByTestId("allowed-host-input")).toHaveProperty("value", "*.com");
  });

  it("words the refusal in Chinese on the Chinese page, and falls back to the host's sentence for a problem it does not know", async () => {
    const unknown = {
      saved: false as const,
      problems: [{ id: "newer-kind" }] as never,
      message: "Host says no.",
    };
    const api = fakeApi({ setAllowedHosts: vi.fn(async () => refused) });
    render(
      <I18nProvider initial="zh-CN">
        <SettingsView host={withHosts([])} api={api} />
      </I18nProvider>,
    );
    const section = within(screen.getByTestId("allowed-hosts"));
    fireEvent.change(section.getByTestId("allowed-host-input"), { target: { value: "*.com" } });
    fireEvent.click(section.getByTestId("allowed-host-add"));
    await waitFor(() => expect(section.getByTestId("allowed-hosts-error").textContent).toMatch(/^未保存：/));
    const text = section.getByTestId("allowed-hosts-error").textContent ?? "";
    expect(text).toContain("“*.com”");
    expect(text).not.toMatch(/cannot be an allowed host|try again/);
    cleanup();

    const card = renderCard(
      runningCommand({
        ...sandboxed,
        hosts: [
          {
            host: "evil.example",
            port: 443,
            allowed: false,
            count: 1,
            bytesUp: 0,
            bytesDown: 0,
            refusal: "not-allowed",
          },
        ],
      }),
      fakeApi({ addAllowedHosts: vi.fn(async () => unknown) }),
    );
    fireEvent.click(card.inCard.getByTestId("host-allow-workspace"));
    await waitFor(() =>
      expect(card.inCard.getByRole("alert").textContent).toBe("Not added to the workspace: Host says no."),
    );
    expect(card.inCard.queryByTestId("host-allowed-for-workspace")).toBeNull();
  });
});

/** The host's answer to a list with `*.com` in it. */
const refused = {
  saved: false as const,
  problems: [{ id: "public-suffix" as const, entry: "*.com", suffix: "com" }],
  message:
    '"*.com" cannot be an allowed host (the host\'s English). Correct or remove that entry and try again.',
};
