import { describe, expect, it } from "vitest";
import {
  bubblewrapArgs,
  explainBubblewrapFailure,
  readBubblewrapStatus,
} from "../../../../src/main/run-command/sandbox/bubblewrap";
import { orderRules, type PathRule } from "../../../../src/main/run-command/sandbox/sandbox-plan";

const dir = (path: string, access: PathRule["access"]): PathRule => ({ path, access, directory: true });

describe("sandbox plan", () => {
  it("orders rules shallow to deep, so the deepest rule above a path decides", () => {
    const rules = orderRules([
      dir("/home/ann/code/app/.pi-desk", "hidden"),
      dir("/home/ann/code/app", "read-write"),
      dir("/tmp", "scratch"),
      dir("/home/ann", "hidden"),
      dir("/tmp/pi-desk-tmp-1", "read-write"),
    ]);
    expect(rules.map((rule) => rule.path)).toEqual([
      "/tmp",
      "/home/ann",
      "/tmp/pi-desk-tmp-1",
      "/home/ann/code/app",
      "/home/ann/code/app/.pi-desk",
    ]);
  });

  it("lets the more generous rule win on the same path, and never touches /", () => {
    const rules = orderRules([
      dir("/home/ann", "hidden"),
      dir("/home/ann/", "read-write"),
      dir("/", "hidden"),
    ]);
    expect(rules).toEqual([dir("/home/ann", "read-write")]);
  });

  it("drops rules that change nothing", () => {
    const rules = orderRules([
      dir("/home/ann", "hidden"),
      dir("/opt/tools", "read-only"),
      dir("/home/ann/.pi", "hidden"),
      { path: "/home/ann/.netrc", access: "hidden", directory: false },
      dir("/work/app", "read-write"),
      dir("/work/app/.home", "read-write"),
    ]);
    expect(rules.map((rule) => rule.path)).toEqual(["/home/ann", "/work/app"]);
  });
});

describe("bubblewrap arguments", () => {
  const plan = {
    workspace: "/home/ann/code/app",
    rules: orderRules([
      dir("/home/ann", "hidden"),
      dir("/tmp", "scratch"),
      dir("/home/ann/code/app", "read-write"),
      { path: "/run/docker.sock", access: "hidden", directory: false },
    ]),
    network: false,
  };

  it("binds, hides and isolates in order, and ends with --", () => {
    expect(bubblewrapArgs(plan)).toEqual([
      ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
      ...[
        "--ro-bind",
        "/proc/sys",
        "/proc/sys",
        "--ro-bind-try",
        "/proc/sysrq-trigger",
        "/proc/sysrq-trigger",
      ],
      ...["--tmpfs", "/tmp", "--tmpfs", "/home/ann", "--ro-bind", "/dev/null", "/run/docker.sock"],
      ...["--bind", "/home/ann/code/app", "/home/ann/code/app", "--remount-ro", "/home/ann"],
      ...["--cap-drop", "ALL", "--unshare-net", "--unshare-pid", "--unshare-ipc", "--die-with-parent"],
      ...["--new-session", "--chdir", "/home/ann/code/app", "--json-status-fd", "3", "--"],
    ]);
  });

  it("keeps the host's network only when allowed", () => {
    expect(bubblewrapArgs({ ...plan, network: true })).not.toContain("--unshare-net");
  });

  it("shows a read-only folder again inside a hidden one", () => {
    const outputs = dir("/home/ann/.pi-desk/outputs", "read-only");
    const args = bubblewrapArgs({ ...plan, rules: orderRules([...plan.rules, outputs]) });
    expect(args.join(" ")).toContain(
      "--tmpfs /home/ann --ro-bind /dev/null /run/docker.sock " +
        "--ro-bind /home/ann/.pi-desk/outputs /home/ann/.pi-desk/outputs --bind /home/ann/code/app /home/ann/code/app",
    );
  });

  it("reads the command's exit status only when bwrap started it", () => {
    const cloned = '{ "child-pid": 12, "mnt-namespace": 4026532176 }\n';
    expect(readBubblewrapStatus(`${cloned}{ "exit-code": 3 }\n`)).toBe(3);
    expect(readBubblewrapStatus(`${cloned}{ "exit-code": 0 }\n`)).toBe(0);
    expect(readBubblewrapStatus(cloned)).toBeUndefined();
    expect(readBubblewrapStatus('{ "child-pid": 12, "mnt')).toBeUndefined();
    expect(readBubblewrapStatus("")).toBeUndefined();
  });

  it("explains bwrap's failures with what to do", () => {
    expect(explainBubblewrapFailure("bwrap: Unknown option --json-status-fd\n", 1)).toContain("too old");
    expect(explainBubblewrapFailure("bwrap: setting up uid map: Permission denied\n", 1)).toContain(
      "user namespaces",
    );
    expect(explainBubblewrapFailure("", 1)).toContain("bwrap exited with code 1 before starting it");
  });
});
