import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Runs before every host test file's imports: Pi reads its agent dir when it is imported, and must
// neither touch the person's ~/.pi nor try to download rg/fd on a machine without them.
process.env.PI_OFFLINE = "1";
process.env.PI_CODING_AGENT_DIR = mkdtempSync(join(tmpdir(), "pi-desk-agent-"));
delete process.env.PI_CODING_AGENT_SESSION_DIR;
delete process.env.PI_DESK_SCRIPT;
// Rules, audit logs and full outputs go to a scratch folder, never the person's ~/.pi-desk.
process.env.PI_DESK_DATA_DIR = mkdtempSync(join(tmpdir(), "pi-desk-data-"));
