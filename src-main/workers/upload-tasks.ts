// Upload work that scales with the bytes: decoding chunks and checking whole files.
import { createHash } from 'node:crypto';
import { move } from 'piscina';

/**
 * Base64 as clients send it: the alphabet, padded to a multiple of 4. (A pattern of repeated
 * 4-character groups overflows the regex stack on a multi-megabyte chunk.)
 */
export const isBase64 = (text: string): boolean => text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);

/** The bytes of a base64 chunk, or null when it is not base64. */
export function decodeBase64Chunk(data: string): Uint8Array | null {
  if (data.length === 0 || !isBase64(data)) return null;
  const bytes = Buffer.from(data, 'base64');
  // A fresh buffer (not a slice of Node's pool) so it can move to the caller without a copy.
  const own = new Uint8Array(bytes.byteLength);
  own.set(bytes);
  return move(own) as Uint8Array;
}

/** Whether an assembled file matches its declared SHA-256, and whether it is UTF-8 text. */
export function inspectUploadFile(input: { bytes: Uint8Array; sha256: string }): { matches: boolean; text: boolean } {
  const matches = createHash('sha256').update(input.bytes).digest('hex') === input.sha256;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(input.bytes);
    return { matches, text: true };
  } catch {
    return { matches, text: false };
  }
}
