import type { CommandPart, CommandRiskMark } from "../../../../shared/commands";
import { useT } from "../../i18n/i18n";

interface Segment {
  /** Offset of its first character in the command. */
  start: number;
  text: string;
  /** Index of the part this text belongs to, if any. */
  part: number | null;
  /** The risks covering this text. */
  risks: CommandRiskMark[];
}

/**
 * Cuts the command at every part and risk boundary, so each piece knows which part holds it and which
 * risks cover it. The pieces put together are exactly the command: nothing is dropped or reordered.
 */
export function segmentCommand(command: string, parts: CommandPart[], risks: CommandRiskMark[]): Segment[] {
  const clamp = (n: number) => Math.min(command.length, Math.max(0, Math.trunc(n) || 0));
  const spans = [...parts, ...risks].filter((span) => clamp(span.start) < clamp(span.end));
  const cuts = new Set([0, command.length]);
  for (const span of spans) {
    cuts.add(clamp(span.start));
    cuts.add(clamp(span.end));
  }
  const points = [...cuts].sort((a, b) => a - b);
  const segments: Segment[] = [];
  for (let i = 0; i < points.length - 1; i++) {
    const start = points[i] as number;
    const end = points[i + 1] as number;
    const inside = (span: { start: number; end: number }) =>
      clamp(span.start) <= start && clamp(span.end) >= end;
    const part = parts.findIndex(inside);
    segments.push({
      start,
      text: command.slice(start, end),
      part: part >= 0 ? part : null,
      risks: risks.filter(inside),
    });
  }
  return segments;
}

/**
 * The exact command, wrapped and never cut, with each command of the line underlined in turn and every
 * risky construct marked; a risk's note is its tooltip (the card also lists the notes as text).
 */
export function CommandText({
  command,
  parts,
  risks,
  testId,
}: {
  command: string;
  parts: CommandPart[];
  risks: CommandRiskMark[];
  testId?: string;
}) {
  const t = useT();
  const segments = segmentCommand(command, parts, risks);
  return (
    <pre className="command-text" data-testid={testId}>
      <code>
        {segments.map((segment) => {
          const partClass = segment.part === null ? "" : `command-part command-part-${segment.part % 2}`;
          if (segment.risks.length > 0) {
            return (
              <mark
                key={segment.start}
                className={`command-risk ${partClass}`}
                title={segment.risks.map((r) => (r.say && t.risk(r.say)) || r.note).join("\n")}
              >
                {segment.text}
              </mark>
            );
          }
          return partClass ? (
            <span key={segment.start} className={partClass}>
              {segment.text}
            </span>
          ) : (
            segment.text
          );
        })}
      </code>
    </pre>
  );
}
