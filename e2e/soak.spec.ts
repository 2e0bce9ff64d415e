import { expect, test } from "@playwright/test";
import { noProblems, runSoak } from "../harness/soak.ts";

// The small version of `npm run soak` (1,000 commands): the same mix through the same real host.
// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a test's fixtures from this pattern.
test("a soak of 60 commands: every result real, nothing leaked, one audit decision each", async ({}, testInfo) => {
  test.skip(process.platform !== "linux", "the soak reads the host's processes and descriptors from /proc");
  test.setTimeout(240_000);
  // A new plan every run, replayable with SOAK_SEED=<seed>.
  const seed = Number(process.env.SOAK_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const report = await runSoak({ commands: 60, parallel: 4, perBatch: 20, seed });
  await testInfo.attach("soak report", {
    body: JSON.stringify(report, null, 2),
    contentType: "application/json",
  });
  expect(report.problems, `seed ${seed}`).toEqual(noProblems());
  expect(report.audit).toEqual({ decisions: 60, finished: 60 });
  // Every descriptor a command used is closed again once the batch is over.
  expect(report.fdGrowth, `seed ${seed}`).toBeLessThanOrEqual(0);
});
