/**
 * Installed before the page's own scripts. It wraps WebSocket so every host message is seen before the
 * app's `onmessage` handler (listeners added in the constructor run first), records animation frames,
 * long tasks and long animation frames while `recording`, and times Cancel: the click (capture phase, so
 * before React's handler) and the first DOM mutation showing the card's new state.
 */
(() => {
  const B = {
    recording: false,
    outputs: [],
    updates: [],
    frames: [],
    longTasks: [],
    loafs: [],
    samples: [],
    messages: 0,
    messageChars: 0,
    cancel: null,
  };
  window.__flood = B;
  const Native = window.WebSocket;
  const outputRe = /"type":"command-output","id":"([^"]*)"/;
  const totalsRe = /"totalBytes":(\d+),"totalLines":(\d+)\}\}$/;
  window.WebSocket = class extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener("message", (e) => {
        const t = performance.now();
        const data = typeof e.data === "string" ? e.data : "";
        B.messages += 1;
        B.messageChars += data.length;
        // A regex on the head and tail, not JSON.parse: the probe must not double the page's parsing work.
        const out = outputRe.exec(data.slice(0, 200));
        if (out) {
          const totals = totalsRe.exec(data.slice(-80));
          B.outputs.push({
            t,
            id: out[1],
            chars: data.length,
            totalBytes: totals ? Number(totals[1]) : null,
            totalLines: totals ? Number(totals[2]) : null,
          });
          return;
        }
        if (data.includes('"type":"command-update"')) {
          const c = JSON.parse(data).event.command;
          B.updates.push({
            t,
            id: c.id,
            phase: c.phase,
            durationMs: c.details?.durationMs ?? null,
            totalBytes: c.details?.totalBytes ?? null,
            totalLines: c.details?.totalLines ?? null,
          });
          if (B.cancel && c.id === B.cancel.id && c.phase === "cancelled" && B.cancel.eventAt === null)
            B.cancel.eventAt = t;
        }
      });
    }
  };
  const tick = (ts) => {
    if (B.recording) B.frames.push(ts);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  new PerformanceObserver((list) => {
    if (!B.recording) return;
    for (const e of list.getEntries()) B.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask" });
  if (PerformanceObserver.supportedEntryTypes.includes("long-animation-frame")) {
    new PerformanceObserver((list) => {
      if (!B.recording) return;
      for (const e of list.getEntries())
        B.loafs.push({
          start: e.startTime,
          duration: e.duration,
          blocking: e.blockingDuration,
          render: e.renderStart ? e.startTime + e.duration - e.renderStart : 0,
          styleLayout: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0,
          scripts: e.scripts.map((s) => ({
            invoker: s.invoker,
            source: `${s.sourceFunctionName} ${(s.sourceURL || "").split("/").pop()}:${s.sourceCharPosition}`,
            duration: s.duration,
          })),
        });
    }).observe({ type: "long-animation-frame" });
  }
  const cardOf = (id) => document.querySelector(`[data-testid="command-card"][data-command-id="${id}"]`);
  const outputOf = (id) => cardOf(id)?.querySelector('[data-testid="command-output"]') ?? null;
  B.measureOutput = (id) => {
    const out = outputOf(id);
    return {
      outputElements: out ? out.querySelectorAll("*").length : null,
      outputTextChars: out ? (out.textContent ?? "").length : null,
      outputLines: out ? (out.textContent ?? "").split("\n").filter(Boolean).length : null,
      cardElements: cardOf(id)?.querySelectorAll("*").length ?? null,
      documentElements: document.querySelectorAll("*").length,
    };
  };
  let sampler = null;
  B.start = (id) => {
    B.frames = [];
    B.longTasks = [];
    B.loafs = [];
    B.samples = [];
    B.recording = true;
    B.recordingFrom = performance.now();
    sampler = setInterval(() => B.samples.push({ t: performance.now(), ...B.measureOutput(id) }), 500);
  };
  B.stop = () => {
    B.recording = false;
    B.recordingTo = performance.now();
    clearInterval(sampler);
  };
  B.armCancel = (id) => {
    B.cancel = { id, clickAt: null, cancellingAt: null, eventAt: null, cancelledAt: null };
    B.frames = [];
    B.longTasks = [];
    B.loafs = [];
    B.recording = true;
    const look = () => {
      const c = B.cancel;
      const card = cardOf(id);
      if (!c || c.clickAt === null || !card) return;
      const now = performance.now();
      const button = card.querySelector('[data-testid="cancel-button"]');
      if (c.cancellingAt === null && button && button.disabled) c.cancellingAt = now;
      if (c.cancelledAt === null && card.dataset.status === "cancelled") {
        c.cancelledAt = now;
        observer.disconnect();
        setTimeout(() => {
          B.recording = false;
        }, 200); // the frame that paints it, and its long-frame entry
      }
    };
    const observer = new MutationObserver(look);
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["data-status", "disabled"],
    });
  };
  window.addEventListener(
    "click",
    (e) => {
      const c = B.cancel;
      const button = e.target instanceof Element ? e.target.closest('[data-testid="cancel-button"]') : null;
      if (c && c.clickAt === null && button?.closest(`[data-command-id="${c.id}"]`))
        c.clickAt = performance.now();
    },
    true,
  );
})();
