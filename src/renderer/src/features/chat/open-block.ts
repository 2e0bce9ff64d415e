import { createContext } from "react";

/**
 * Whether the Markdown block being drawn is the one still being written (the last of a streaming message):
 * its code is highlighted only once it is finished, so a growing block is not tokenised again per chunk.
 */
export const OpenBlock = createContext(false);
