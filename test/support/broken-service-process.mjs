// A service process that misbehaves on purpose, to drive the supervisor's failure paths:
// BROKEN_MODE=exit      exits with code 3 as soon as it is asked to start
// BROKEN_MODE=silent    never answers (a start that hangs)
process.on('message', (message) => {
  if (message?.type !== 'start') return;
  if (process.env.BROKEN_MODE === 'exit') process.exit(3);
});
// Keep the process alive (the IPC channel alone would too, but be explicit).
setInterval(() => {}, 60_000);
