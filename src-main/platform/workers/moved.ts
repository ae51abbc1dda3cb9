// A worker task's result whose buffer moves to the calling thread instead of being copied: piscina
// transfers what a result lists under its transferable symbol. The buffer must be the result's own
// (not a slice of Node's buffer pool), and the task's thread must not touch it afterwards.
import { move, transferableSymbol, valueSymbol } from 'piscina';

export function movedWith<T>(value: T, buffer: ArrayBufferLike): T {
  return move({ [transferableSymbol]: [buffer], [valueSymbol]: value } as never) as unknown as T;
}
