// Placeholder so the build has its second entry; the lead replaces this with `drydock serve` and friends.
async function main(argv: string[]): Promise<void> {
  console.error(`drydock: the command line is not written yet (${argv.slice(2).join(' ')}).`);
  process.exitCode = 1;
}

void main(process.argv);
