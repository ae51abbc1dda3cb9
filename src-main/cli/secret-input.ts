// Reading a credential the user does not pass on the command line: piped stdin (scripts), or a
// prompt on the terminal that echoes nothing.
import { CliError, ExitCodes } from './output';

async function readAll(stream: NodeJS.ReadStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk;
  return text;
}

/** Reads one line from the terminal without echoing it (backspace edits, Ctrl-C aborts). */
function prompt(question: string, stdin: NodeJS.ReadStream, stderr: NodeJS.WriteStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let value = '';
    // Echo off before the question shows: keys typed the moment it appears must not be echoed.
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.resume();
    stderr.write(question);
    const done = (error: Error | null) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done(null);
        if (ch === '\u0003') return done(new CliError('INTERRUPTED', 'Cancelled.', ExitCodes.INTERRUPTED));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

export async function readSecret(question: string, stdin: NodeJS.ReadStream = process.stdin, stderr: NodeJS.WriteStream = process.stderr): Promise<string> {
  const value = stdin.isTTY ? await prompt(question, stdin, stderr) : (await readAll(stdin)).split(/\r?\n/)[0] ?? '';
  return value.trim();
}
