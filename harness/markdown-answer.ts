/**
 * A long answer as a model writes one: headings, prose with inline code, links and emphasis, lists, a
 * table, a quote and a code block per step, ten steps, cut to the size asked. The Markdown bench streams it
 * and the screenshots draw part of it.
 */
export function markdownAnswer(chars = 40_000): string {
  const parts: string[] = [];
  for (let step = 0; step < 10; step++) {
    parts.push(
      `## Step ${step + 1}\n\nThe **change** in \`src/file-${step}.ts\` keeps the *old* behaviour and adds [a link](https://example.com/${step}); see the table below.\n`,
      "- first point about the code, with `inline` code\n- second point, **bold** and ~~struck~~\n  - nested item\n",
      `| name | value |\n| --- | ---: |\n| a | ${step} |\n| b | ${step * 2} |\n`,
      `\`\`\`ts\n${Array.from({ length: 40 }, (_, line) => `export function f${step}_${line}(x: number): number { return x * ${line}; }`).join("\n")}\n\`\`\`\n`,
      "> A quoted note that spans\n> two lines.\n",
    );
  }
  let text = parts.join("\n");
  while (text.length < chars)
    text += "\nMore prose that wraps up the answer with a sentence or two about what was done.\n";
  return text.slice(0, chars);
}
