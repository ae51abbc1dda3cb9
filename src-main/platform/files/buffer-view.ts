/** `bytes` as a Buffer over the same memory (no copy): Node's APIs that want a Buffer take any view this way. */
export const bufferView = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
