/** The CommonMark spec's examples, as the `commonmark-spec` package ships them (it has no types). */
declare module "commonmark-spec" {
  /** One example of the spec. */
  export interface SpecExample {
    /** The Markdown, with tabs written as →. */
    markdown: string;
    /** The HTML the reference implementation gives, tabs as →. */
    html: string;
    /** The spec's section holding the example. */
    section: string;
    /** The example's number in the spec. */
    number: number;
  }
  /** Every example, in the spec's order. */
  export const tests: SpecExample[];
  /** The spec's text. */
  export const text: string;
}
