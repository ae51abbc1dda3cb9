// Build outputs read at start as Latin-1 (start time, issue 10): a file in ASCII only is a plain copy
// into a one-byte string for V8, where one non-ASCII character made Node decode the whole file as
// UTF-8 into a two-byte string.

/**
 * `text` with every character beyond ASCII written as a `\uXXXX` escape. For JavaScript source and
 * JSON, where such characters stand only in strings, templates and comments, the escape means the
 * same character.
 * @param {string} text
 */
export const escapeNonAscii = (text) => text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
