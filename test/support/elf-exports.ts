// The names a shared object (a Node addon, `.node`) exports: its ELF dynamic symbol table, read
// without binutils. ELF64 little-endian only (Linux on x64 and arm64).
import { readFileSync } from 'node:fs';

const SHT_DYNSYM = 11;
const SHN_UNDEF = 0;
const STB_GLOBAL = 1;
const STB_WEAK = 2;

export function elfExports(file: string): Set<string> {
  const elf = readFileSync(file);
  if (elf.readUInt32BE(0) !== 0x7f454c46) throw new Error(`${file} is not an ELF file`);
  if (elf[4] !== 2 || elf[5] !== 1) throw new Error(`${file} is not a 64-bit little-endian ELF file`);
  const sectionsAt = Number(elf.readBigUInt64LE(0x28));
  const sectionSize = elf.readUInt16LE(0x3a);
  const sectionCount = elf.readUInt16LE(0x3c);
  const section = (index: number) => {
    const at = sectionsAt + index * sectionSize;
    return {
      type: elf.readUInt32LE(at + 4),
      offset: Number(elf.readBigUInt64LE(at + 0x18)),
      size: Number(elf.readBigUInt64LE(at + 0x20)),
      link: elf.readUInt32LE(at + 0x28),
      entrySize: Number(elf.readBigUInt64LE(at + 0x38)),
    };
  };
  const names = new Set<string>();
  for (let i = 0; i < sectionCount; i++) {
    const symbols = section(i);
    if (symbols.type !== SHT_DYNSYM) continue;
    const strings = section(symbols.link);
    for (let at = symbols.offset; at + symbols.entrySize <= symbols.offset + symbols.size; at += symbols.entrySize) {
      const nameAt = elf.readUInt32LE(at);
      const binding = elf[at + 4]! >> 4;
      const sectionIndex = elf.readUInt16LE(at + 6);
      if (sectionIndex === SHN_UNDEF || (binding !== STB_GLOBAL && binding !== STB_WEAK)) continue;
      const start = strings.offset + nameAt;
      names.add(elf.toString('latin1', start, elf.indexOf(0, start)));
    }
  }
  return names;
}
